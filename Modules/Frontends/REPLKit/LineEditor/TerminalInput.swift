import CLIKit
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

    /// The lines of standard input without line breaks, each at most `InputLine.maxBytes`;
    /// finishes at end of input.
    public static func lines() -> AsyncStream<InputLine> {
        let (stream, continuation) = AsyncStream<InputLine>.makeStream()
        let reader = Thread {
            var splitter = LineSplitter()
            var chunk = [UInt8](repeating: 0, count: 4_096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                for byte in chunk[..<count] {
                    if let line = splitter.feed(byte) { continuation.yield(line) }
                }
            }
            if let last = splitter.end() { continuation.yield(last) }
            continuation.finish()
        }
        reader.start()
        return stream
    }
}
