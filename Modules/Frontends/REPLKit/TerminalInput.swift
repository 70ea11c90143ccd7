import Foundation

/// Standard input read on a background thread, as bytes or as lines, so that reading never
/// blocks the main actor where screens update.
public enum TerminalInput {
    /// The bytes of standard input; finishes at end of input.
    public static func bytes() -> AsyncStream<UInt8> {
        let (stream, continuation) = AsyncStream<UInt8>.makeStream()
        let reader = Thread {
            var byte: UInt8 = 0
            while read(STDIN_FILENO, &byte, 1) == 1 { continuation.yield(byte) }
            continuation.finish()
        }
        reader.start()
        return stream
    }

    /// The lines of standard input without line breaks; finishes at end of input.
    public static func lines() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let reader = Thread {
            while let line = Swift.readLine(strippingNewline: true) { continuation.yield(line) }
            continuation.finish()
        }
        reader.start()
        return stream
    }
}
