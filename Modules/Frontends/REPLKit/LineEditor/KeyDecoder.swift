/// Turns the bytes a terminal sends into keys (UTF-8 text, control keys, ANSI escape sequences).
public struct KeyDecoder {
    private var pending: [UInt8] = []

    /// Creates a decoder.
    public init() {}

    /// Feeds one byte; returns a key once its sequence is complete.
    public mutating func feed(_ byte: UInt8) -> Key? {
        pending.append(byte)
        guard let key = decode() else { return nil }
        pending.removeAll()
        return key
    }

    /// Esc, when it is all that came: a terminal sends the rest of a sequence at once, so an
    /// escape still alone a moment later is the key itself. `nil` when something else is pending.
    public mutating func flushEscape() -> Key? {
        guard pending == [0x1B] else { return nil }
        pending.removeAll()
        return .escape
    }

    private func decode() -> Key? {
        switch pending[0] {
        case 0x1B: return decodeEscape()
        case 0x01: return .home
        case 0x02: return .left
        case 0x03: return .interrupt
        case 0x04: return .endOfInput
        case 0x05: return .end
        case 0x06: return .right
        case 0x08, 0x7F: return .backspace
        case 0x09: return .tab
        case 0x0A, 0x0D: return .enter
        case 0x0B: return .killToEnd
        case 0x0C: return .clearScreen
        case 0x0E: return .controlN
        case 0x10: return .controlP
        case 0x12: return .reverseSearch
        case 0x07: return .cancel
        case 0x15: return .killToStart
        case 0x17: return .deleteWordBackward
        case 0x00..<0x20: return .unknown
        default: return decodeUTF8()
        }
    }

    private func decodeUTF8() -> Key? {
        let expected =
            switch pending[0] {
            case 0xF0...: 4
            case 0xE0...: 3
            case 0xC0...: 2
            default: 1
            }
        guard pending.count >= expected else { return nil }
        // A C1 control (U+0080–009F) is never text to insert.
        guard let text = String(validating: pending, as: UTF8.self), let character = text.first,
            !character.unicodeScalars.contains(where: \.isControl)
        else { return .unknown }
        return .character(character)
    }

    private func decodeEscape() -> Key? {
        guard pending.count >= 2 else { return nil }
        switch pending[1] {
        case 0x7F, 0x08: return .deleteWordBackward
        case UInt8(ascii: "b"): return .wordLeft
        case UInt8(ascii: "f"): return .wordRight
        case UInt8(ascii: "["), UInt8(ascii: "O"): break
        case UInt8(ascii: "_"): return decodeGraphicsReply()
        case 0x21...0x7E: return .alt(Character(Unicode.Scalar(pending[1])))
        default: return .unknown
        }
        guard pending.count >= 3, let last = pending.last else { return nil }
        // A mouse report of a terminal without SGR reports: `ESC [ M` and three raw bytes
        // (button, column and row, each plus 32), taken whole so none is typed.
        if pending[1] == UInt8(ascii: "["), pending[2] == UInt8(ascii: "M") {
            guard pending.count == 6 else { return nil }
            return Self.mouse(button: Int(pending[3]) - 32, column: Int(pending[4]) - 32, row: Int(pending[5]) - 32, pressed: true)
        }
        // The longest sequences taken are a terminal's replies (`ESC [ ? 64 ; 1 ; 4 … c`) and SGR
        // mouse reports (`ESC [ < button ; column ; row M`): digits and `;` after `?`, `<` or a digit.
        let longest = [UInt8(ascii: "?"), UInt8(ascii: "<"), UInt8(ascii: "6")].contains(pending[2]) ? 64 : 8
        guard (0x40...0x7E).contains(last) else { return pending.count > longest ? .unknown : nil }
        let body = String(decoding: pending[2...], as: UTF8.self)
        if body.hasPrefix("<") { return Self.mouse(body) }
        if let reply = Self.reply(body) { return .reply(reply) }
        switch body {
        case "A": return .up
        case "B": return .down
        case "C": return .right
        case "D": return .left
        case "H", "1~", "7~": return .home
        case "F", "4~", "8~": return .end
        case "3~": return .delete
        case "5~": return .pageUp
        case "6~": return .pageDown
        case "1;5C", "1;3C": return .wordRight
        case "1;5D", "1;3D": return .wordLeft
        default: return .unknown
        }
    }

    /// A kitty graphics reply, `ESC _ G i=31;OK ESC \`, taken whole up to 256 bytes (more, or
    /// anything but `G` after `ESC _`, is no reply).
    private func decodeGraphicsReply() -> Key? {
        guard pending.count >= 3 else { return nil }
        guard pending[2] == UInt8(ascii: "G") else { return .unknown }
        guard pending.suffix(2) == [0x1B, UInt8(ascii: "\\")] else { return pending.count > 256 ? .unknown : nil }
        let body = String(decoding: pending.dropFirst(3).dropLast(2), as: UTF8.self)
        return .reply(.graphics(ok: body.split(separator: ";").dropFirst().first == "OK"))
    }

    /// The reply a CSI sequence's `body` is: device attributes (`?62;4c`) or a cell's size (`6;20;10t`).
    private static func reply(_ body: String) -> TerminalReply? {
        let numbers = body.dropFirst(body.hasPrefix("?") ? 1 : 0).dropLast().split(separator: ";").compactMap { Int($0) }
        if body.hasPrefix("?"), body.hasSuffix("c") { return .deviceAttributes(numbers) }
        if body.hasSuffix("t"), numbers.count == 3, numbers[0] == 6 { return .cellSize(width: numbers[2], height: numbers[1]) }
        return nil
    }

    /// An SGR mouse report's key (`<button;column;row` and `M` pressed or `m` released).
    private static func mouse(_ body: String) -> Key {
        let numbers = body.dropFirst().dropLast().split(separator: ";").compactMap { Int($0) }
        guard numbers.count == 3 else { return .unknown }
        return mouse(button: numbers[0], column: numbers[1], row: numbers[2], pressed: body.hasSuffix("M"))
    }

    /// The key of a mouse report, its column and row from 1: a left button pressed, or the
    /// wheel turned; anything else (a release, a drag, another button) `.unknown`.
    private static func mouse(button: Int, column: Int, row: Int, pressed: Bool) -> Key {
        guard pressed, column >= 1, row >= 1 else { return .unknown }
        let action: Key.Mouse.Action
        switch button {
        case 0: action = .click
        case 64: action = .wheelUp
        case 65: action = .wheelDown
        default: return .unknown
        }
        return .mouse(Key.Mouse(action, row: row - 1, column: column - 1))
    }
}
