extension AppError.Kind {
    /// The process exit code of this failure class, the same for every program of the project
    /// (the README's table): `messageai` and `messageai-server` alike.
    public var exitCode: Int32 {
        switch self {
        case .usage: 64
        case .invalidInput, .tooLarge: 65
        case .notFound: 66
        case .conflict: 67
        case .unavailable: 69
        case .internal: 70
        case .rateLimited: 75
        case .forbidden: 76
        case .notSignedIn: 77
        case .invalidCredentials: 78
        case .gone: 79
        }
    }
}
