import Foundation

/// Blocking work (waiting for a process, reading a pipe or a terminal) done on a thread of its
/// own. Swift concurrency has one thread per core, two on our machines and CI's: a test that
/// blocks one of them halves every other test's progress in the process, and two such tests stop
/// it, long enough for timed expectations elsewhere to fail.
public enum OwnThread {
    /// Runs `work` on a new thread and returns its result or throws its error, holding none of
    /// Swift concurrency's threads meanwhile.
    public static func run<Value: Sendable, Failure: Error>(_ work: @escaping @Sendable () throws(Failure) -> Value) async throws(Failure) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            Thread { continuation.resume(returning: Result { () throws(Failure) in try work() }) }.start()
        }
        return try result.get()
    }
}

extension Process {
    /// Waits until the process has ended (see `OwnThread`) and returns its termination status.
    @discardableResult
    public func ended() async -> Int32 {
        await OwnThread.run { [self] in
            waitUntilExit()
            return terminationStatus
        }
    }
}

extension Pipe {
    /// Everything written to the pipe until every writer has closed it (see `OwnThread`).
    public func readAll() async -> Data {
        await OwnThread.run { [self] in fileHandleForReading.readDataToEndOfFile() }
    }
}

extension Process {
    /// What a process printed and how it ended.
    public struct Finished: Sendable {
        public let status: Int32
        /// Its standard output.
        public let output: String
        /// Its standard error.
        public let errors: String
    }

    /// Starts the process with `input` on its standard input and both outputs piped, and waits
    /// until it has ended (see `OwnThread`).
    public func runToEnd(input: String = "") async throws -> Finished {
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        (standardInput, standardOutput, standardError) = (stdin, stdout, stderr)
        try run()
        try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        async let out = stdout.readAll()
        async let err = stderr.readAll()
        let (output, errors) = await (out, err)
        return Finished(status: await ended(), output: String(decoding: output, as: UTF8.self), errors: String(decoding: errors, as: UTF8.self))
    }
}
