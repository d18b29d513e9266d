/// What the `instructions` scenario reads from one `valgrind --tool=callgrind --dump-instr=yes`
/// output file: how often each machine instruction ran, and how often each function was called.
///
/// The format (callgrind's "compressed" one, its default) names an object or function once, as
/// `(id) name`, and by `(id)` alone after that. A cost line starts with the instruction's address,
/// absolute (`0x…`) or relative to the cost line before (`+n`, `-n`, `*` for the same), then the
/// source line, then the count. A `calls=` line says a call happened; the cost line after it is
/// the call's inclusive cost, at the call's own address, so it moves the address on but is not the
/// instruction's own count.
struct CallgrindProfile {
    /// One machine instruction: the object file it is in, and its address there.
    struct Instruction: Hashable {
        /// The object file's path, as callgrind names it.
        var object: Substring
        /// The instruction's address in that object.
        var address: Int
    }

    /// How many times each instruction ran (its own count, calls it made excluded).
    private(set) var executions: [Instruction: Int] = [:]
    /// How many times each function, by name, was called.
    private(set) var calls: [Substring: Int] = [:]

    /// Reads `text`, the whole of a callgrind output file.
    init(_ text: String) {
        var objectNames: [Substring: Substring] = [:]
        var functionNames: [Substring: Substring] = [:]
        var object: Substring = ""
        var callee: Substring?
        var callCostFollows = false
        var address = 0
        for line in text.split(separator: "\n") {
            if let first = line.first, first == "0" || first == "+" || first == "-" || first == "*" {
                let fields = line.split(separator: " ")
                guard let position = fields.first, let count = fields.last.flatMap({ Int($0) }) else { continue }
                address = Self.address(position, after: address)
                if callCostFollows {
                    callCostFollows = false
                } else {
                    executions[Instruction(object: object, address: address), default: 0] += count
                }
            } else if line.hasPrefix("ob=") {
                object = Self.name(line.dropFirst(3), in: &objectNames)
            } else if line.hasPrefix("cob=") {
                // Names the called function's object: recorded, so a later `ob=(id)` resolves.
                _ = Self.name(line.dropFirst(4), in: &objectNames)
            } else if line.hasPrefix("fn=") {
                _ = Self.name(line.dropFirst(3), in: &functionNames)
            } else if line.hasPrefix("cfn=") {
                callee = Self.name(line.dropFirst(4), in: &functionNames)
            } else if line.hasPrefix("calls=") {
                if let callee, let count = Int(line.dropFirst(6).prefix { $0 != " " }) {
                    calls[callee, default: 0] += count
                }
                callCostFollows = true
            }
        }
    }

    /// The name `reference` (`(id) name` or `(id)`) stands for, learning it from its first form.
    private static func name(_ reference: Substring, in names: inout [Substring: Substring]) -> Substring {
        guard reference.first == "(", let close = reference.firstIndex(of: ")") else { return reference }
        let id = reference[...close]
        let rest = reference[reference.index(after: close)...].drop { $0 == " " }
        if rest.isEmpty { return names[id] ?? id }
        names[id] = rest
        return rest
    }

    /// The address `position` gives, absolute or relative to `previous`.
    private static func address(_ position: Substring, after previous: Int) -> Int {
        switch position.first {
        case "*": previous
        case "+": previous + (Int(position.dropFirst()) ?? 0)
        case "-": previous - (Int(position.dropFirst()) ?? 0)
        default: Int(position.dropFirst(2), radix: 16) ?? previous
        }
    }

    /// The 64-byte lines of code that ran at least once a send, from a profile of `few` sends
    /// (`self`) and one of `many`: a line counts when one of its instructions ran at least
    /// `many − few` more times in the longer run. The code a send cannot do without fetching,
    /// whatever else ran on the core: the send's instruction-cache footprint.
    func linesRunEverySend(few: Int, comparedWith longer: CallgrindProfile, many: Int) -> Int {
        let sends = many - few
        var lines: Set<Instruction> = []
        for (instruction, count) in longer.executions where count - (executions[instruction] ?? 0) >= sends {
            lines.insert(Instruction(object: instruction.object, address: instruction.address / 64))
        }
        return lines.count
    }
}
