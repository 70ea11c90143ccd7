import Kernel

/// The CLI's exit codes, one per failure class (see the README's table).
public enum ExitStatus {
    /// The exit code of a failure class.
    public static func code(for kind: AppError.Kind) -> Int32 {
        switch kind {
        case .usage: 64
        case .invalidInput: 65
        case .notFound: 66
        case .conflict: 67
        case .unavailable: 69
        case .rateLimited: 75
        case .internal: 70
        case .forbidden: 76
        case .notSignedIn: 77
        case .invalidCredentials: 78
        }
    }

    /// Standard output or standard error could not be written (a closed pipe, a full disk).
    public static let outputFailed: Int32 = 74
    /// Interrupted by Ctrl-C (SIGINT), after the terminal was put back as it was.
    public static let interrupted: Int32 = 130
}
