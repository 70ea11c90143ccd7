import Foundation
import Kernel

/// Password reset codes in memory: the unit tests' `ResetCodeStore`.
public actor InMemoryResetCodes: ResetCodeStore {
    private var kept: [String: (user: UserID, expiresAt: Date)] = [:]

    /// No codes.
    public init() {}

    public func replace(_ digest: String, for user: UserID, until expiresAt: Date) {
        kept = kept.filter { $0.value.user != user }
        kept[digest] = (user, expiresAt)
    }

    public func redeem(_ digest: String, at now: Date) -> UserID? {
        guard let code = kept.removeValue(forKey: digest), code.expiresAt > now else { return nil }
        return code.user
    }
}
