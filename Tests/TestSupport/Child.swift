import Foundation
import Kernel
import Synchronization

/// A child process of a test or benchmark, with its standard output as lines and its
/// standard input a pipe written a line at a time.
public final class Child: @unchecked Sendable {
    /// The process, started.
    public let process = Process()
    /// Its standard output, a line at a time, until it closes.
    public let lines: AsyncStream<String>
    private let input = Pipe()
    private let printed = Printed()

    /// The lines printed so far, and a tick for each new one.
    private final class Printed: Sendable {
        let lines = Mutex<[String]>([])
        let added = Broadcaster<Void>(bufferSize: 1)

        func first(where matches: (String) -> Bool) -> String? { lines.withLock { $0.first(where: matches) } }
    }

    /// Starts `executable` with `arguments` and `environment` added to ours; with
    /// `mergingErrors`, its standard error comes among its lines too.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], mergingErrors: Bool = false) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = output
        if mergingErrors { process.standardError = output }
        process.standardInput = input
        let (stream, continuation) = AsyncStream<String>.makeStream()
        lines = stream
        let handle = output.fileHandleForReading
        Thread { [printed] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    printed.lines.withLock { $0.append(line) }
                    printed.added.send(())
                    continuation.yield(line)
                    pending.removeSubrange(...newline)
                }
            }
            continuation.finish()
        }.start()
        try process.run()
    }

    /// This program's own executable, for child modes.
    public static var selfPath: String { CommandLine.arguments[0] }

    /// Writes `line` and a line break to its standard input.
    public func send(_ line: String) { try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8)) }

    /// The first line printed so far or within `limit` that `matches`; `nil` if none came.
    public func line(within limit: Duration, where matches: @escaping @Sendable (String) -> Bool) async -> String? {
        let ticks = printed.added.subscribe()
        return await withTaskGroup(of: String?.self) { group in
            group.addTask { [printed] in
                if let line = printed.first(where: matches) { return line }
                for await _ in ticks {
                    if let line = printed.first(where: matches) { return line }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Kills it at once (SIGKILL) and waits until it is gone.
    public func kill9() async {
        kill(process.processIdentifier, SIGKILL)
        await process.ended()
    }

    /// CPU time (user + system) used so far, in seconds, from /proc.
    public var cpuSeconds: Double { Self.cpuSeconds(of: process.processIdentifier) }

    /// CPU time (user + system) process `pid` has used so far, in seconds, from /proc; NaN when
    /// it cannot be read.
    public static func cpuSeconds(of pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return .nan }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12 else { return .nan }
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The resident memory of process `pid` now, in bytes, from /proc; 0 when it cannot be read.
    public static func residentBytes(of pid: Int32) -> Int { status("VmRSS:", of: pid) }

    /// The most resident memory the process `pid` has had, in bytes (its high-water mark), from `/proc`.
    public static func peakResidentBytes(of pid: Int32) -> Int { status("VmHWM:", of: pid) }

    /// The kilobytes of the `/proc/PID/status` line `name`, in bytes; 0 when it cannot be read.
    private static func status(_ name: String, of pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) })
        else { return 0 }
        return (line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0) * 1_024
    }
}
