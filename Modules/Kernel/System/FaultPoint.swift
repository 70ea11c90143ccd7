import Foundation

/// A place in the code where a test stops the process dead (SIGKILL), to prove what a crash
/// exactly there leaves behind; random kills rarely land in a window of a millisecond. Only
/// debug builds (the ones `swift test` runs) honour it; in release builds `reach()` is empty.
public enum FaultPoint: String, Sendable, CaseIterable {
    /// Sign-up has written the account and not yet its profile or session, in its transaction.
    case signUpAccountWritten = "sign-up.account-written"
    /// The server has stored a socket's sends and not yet answered them.
    case sendsStoredUnanswered = "sends.stored-unanswered"

    /// The environment variable that names the point to stop at.
    public static let variable = "MESSAGEAI_FAULT_POINT"

    /// Kills the process when `variable` names this point (debug builds only).
    @inline(__always)
    public func reach() {
        #if DEBUG
            if Self.armed == self { kill(getpid(), SIGKILL) }
        #endif
    }

    #if DEBUG
        private static let armed = ProcessInfo.processInfo.environment[variable].flatMap(FaultPoint.init(rawValue:))
    #endif
}
