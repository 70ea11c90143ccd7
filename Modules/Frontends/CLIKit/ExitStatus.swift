import Kernel

/// The CLI's exit codes: one per failure class (`AppError.Kind.exitCode`), and those of the CLI's own conditions.
public enum ExitStatus {
    /// Standard output or standard error could not be written (a closed pipe, a full disk).
    public static let outputFailed: Int32 = 74
    /// Interrupted by Ctrl-C (SIGINT), after the terminal was put back as it was.
    public static let interrupted: Int32 = 130
}
