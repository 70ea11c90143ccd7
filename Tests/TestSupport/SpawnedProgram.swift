import Foundation

/// A program run to its end that may leave daemons running behind it (`pg_ctl start`, the
/// deployment stack): spawned and waited for by hand, with its output in a file and no
/// descriptor of this process but the standard three. Foundation's `Process` learns that a
/// program ended when a socket it hands the program closes; a daemon that inherited that socket,
/// or any other descriptor of this process (a pipe, another test's socket), would hold it open
/// as long as it runs.
public enum SpawnedProgram {
    /// What a run printed and how it ended.
    public struct Run: Sendable {
        /// The exit status, or 128 plus the signal that ended it.
        public let status: Int32
        /// Standard output and standard error, together.
        public let output: String
    }

    /// Runs `argv` (`argv[0]` a path) to its end, blocking the calling thread, with this
    /// process's environment and `environment` over it.
    /// - Throws: `POSIXError` when it cannot be started.
    public static func run(_ argv: [String], environment: [String: String] = [:]) throws -> Run {
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-spawned-\(UUID().uuidString)").path
        defer { unlink(outputFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Every descriptor from 3 up, closed in the child itself: a list made here beforehand
        // would miss one another thread opens meanwhile. (glibc has it since 2.34; Swift's Glibc
        // module does not show it, so it is looked up.)
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let closeFrom = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map({ unsafeBitCast($0, to: CloseFrom.self) }),
            closeFrom(&actions, 3) == 0
        else {
            throw POSIXError(.ENOSYS)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let cArguments = argv.map { strdup($0) } + [nil]
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let cEnvironment = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, cEnvironment)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        // Exited: the low 7 bits clear and the status above them; else ended by the signal in them.
        return Run(status: status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + status & 0x7F, output: output)
    }
}
