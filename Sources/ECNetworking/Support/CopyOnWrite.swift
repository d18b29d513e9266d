/// A value kept in one shared object until a copy changes it, as `Array` keeps its elements.
///
/// For the large values a send passes from stage to stage (``NetworkRequest``,
/// ``NetworkResponse``): a copy of a struct with ten reference-counted fields costs ten atomic
/// reference-count operations, and a send makes many copies; a copy of this costs one. A change
/// through ``value`` copies the object first only when another copy still shares it.
struct CopyOnWrite<Value: Sendable>: Sendable {
    private var box: Box

    init(_ value: Value) {
        box = Box(value)
    }

    /// The value; changing it leaves every other copy as it was.
    var value: Value {
        get { box.value }
        _modify {
            if !isKnownUniquelyReferenced(&box) {
                box = Box(box.value)
            }
            yield &box.value
        }
    }

    /// The object the copies share.
    private final class Box: @unchecked Sendable {
        // Safe without a lock for the same reason `Array`'s buffer is: `value` is changed only
        // through `CopyOnWrite.value`, once `isKnownUniquelyReferenced` has shown that the copy
        // making the change holds the only reference, and one `var` is never changed by two
        // threads at once (Swift's exclusivity rule). An object that another copy, and so another
        // thread, can see is never changed again, only read.
        // Not checked dynamically either: that same rule already makes every change exclusive.
        @exclusivity(unchecked) var value: Value

        init(_ value: Value) {
            self.value = value
        }
    }
}
