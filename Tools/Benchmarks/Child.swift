import Foundation

/// A child process of the benchmark, with its standard output as lines.
final class Child: @unchecked Sendable {
    let process = Process()
    let lines: AsyncStream<String>
    private let input = Pipe()

    /// Starts `executable` with `arguments` and `environment` added to ours.
    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = output
        process.standardInput = input
        let (stream, continuation) = AsyncStream<String>.makeStream()
        lines = stream
        let handle = output.fileHandleForReading
        Thread {
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    continuation.yield(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
            }
            continuation.finish()
        }.start()
        try process.run()
    }

    /// This benchmark's own executable, for child modes.
    static var selfPath: String { CommandLine.arguments[0] }

    func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    /// CPU time (user + system) used so far, in seconds, from /proc.
    var cpuSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return .nan }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
