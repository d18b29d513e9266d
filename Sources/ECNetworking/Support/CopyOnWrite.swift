/// A value kept in one shared object until a copy changes it, as `Array` keeps its elements.
///
/// For the large values a send passes from stage to stage (``NetworkRequest``,
/// ``NetworkResponse``): a copy of a struct with ten reference-counted fields costs ten atomic
/// reference-count operations, and a send makes many copies; a copy of this costs one. A change
/// through ``unique`` copies the object first only when another copy still shares it.
struct CopyOnWrite<Value: Sendable>: Sendable {
    private var box: Box

    init(_ value: Value) {
        box = Box(value)
    }

    /// The value, to read.
    var value: Value { box.value }

    /// The object holding the value, for a change: copied first when another copy shares it, so
    /// that a change to its value leaves every other copy as it was.
    ///
    /// An owner's `_modify` accessor yields a field of this object's value directly (`yield
    /// &storage.unique.value.headers`). Nesting a `_modify` of this type inside it instead made
    /// the owner's coroutine frame too large for the caller's buffer, so that every change through
    /// it (every `request.headers.add`) allocated the frame on the heap.
    var unique: Box {
        mutating get {
            if !isKnownUniquelyReferenced(&box) {
                box = Box(box.value)
            }
            return box
        }
    }

    /// The object the copies share.
    final class Box: @unchecked Sendable {
        // Safe without a lock for the same reason `Array`'s buffer is: `value` is changed only
        // through `CopyOnWrite.unique`, once `isKnownUniquelyReferenced` has shown that the copy
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
