import Foundation

/// Runs a command line to its end and returns what it printed.
public enum ToolProcess {
    /// Runs `arguments` (looked up on `PATH`) in `directory`.
    /// - Returns: its standard output.
    /// - Throws: `ToolError` with the end of its standard error when it exits non-zero.
    public static func run(_ arguments: [String], in directory: URL) async throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Both pipes are drained at once, so a chatty child cannot fill one and block.
        async let errorText = readAll(errors)
        let data = await readAll(output)
        let message = String(decoding: await errorText, as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolError("`\(arguments.joined(separator: " "))` failed (exit \(process.terminationStatus)): \(message.suffix(2_000))")
        }
        return data
    }

    private static func readAll(_ pipe: Pipe) async -> Data {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: pipe.fileHandleForReading.readDataToEndOfFile()) }
        }
    }
}
