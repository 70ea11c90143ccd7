import Kernel

/// Splits bytes into lines of at most `InputLine.maxBytes`, keeping no more than that in
/// memory whatever comes in: the rest of an over-long line is counted, not kept.
public struct LineSplitter: Sendable {
    private var current: [UInt8] = []
    private var overflow = 0
    private let maxBytes: Int

    /// Creates a splitter for lines of at most `maxBytes` bytes.
    public init(maxBytes: Int = InputLine.maxBytes) { self.maxBytes = maxBytes }

    /// Feeds one byte; returns a finished line at a line break.
    public mutating func feed(_ byte: UInt8) -> InputLine? {
        guard byte == UInt8(ascii: "\n") else {
            if current.count < maxBytes { current.append(byte) } else { overflow += 1 }
            return nil
        }
        return finish()
    }

    /// True once the current line is past the limit: a caller reading one line may stop there
    /// instead of reading the rest of an endless line.
    public var isOverflowing: Bool { overflow > 0 }

    /// The last line when input ends without a line break, if there is one.
    public mutating func end() -> InputLine? {
        current.isEmpty && overflow == 0 ? nil : finish()
    }

    private mutating func finish() -> InputLine {
        defer {
            current.removeAll(keepingCapacity: true)
            overflow = 0
        }
        if overflow > 0 {
            return .refused(AppError(.invalidInput, "a line of \(current.count + overflow) bytes was ignored; lines are at most \(maxBytes) bytes"))
        }
        if current.last == UInt8(ascii: "\r") { current.removeLast() }
        guard let text = String(validating: current, as: UTF8.self) else {
            return .refused(AppError(.invalidInput, "a line that is not valid UTF-8 text was ignored"))
        }
        return .text(text)
    }
}
