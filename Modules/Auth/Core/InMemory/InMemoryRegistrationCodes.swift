import Foundation
import Kernel

/// Invitation codes in memory: the unit tests' `RegistrationCodeStore`.
public actor InMemoryRegistrationCodes: RegistrationCodeStore {
    private var kept: [RegistrationCode] = []

    /// No codes.
    public init() {}

    public func add(_ code: RegistrationCode) { kept.insert(code, at: 0) }

    public func codes() -> [RegistrationCode] { kept }

    public func take(_ digest: String, at now: Date) -> Bool {
        guard let index = kept.firstIndex(where: { $0.digest == digest && $0.usesLeft > 0 && $0.expiresAt > now }) else { return false }
        kept[index] = changed(kept[index], by: -1)
        return true
    }

    public func giveBack(_ digest: String) {
        guard let index = kept.firstIndex(where: { $0.digest == digest }) else { return }
        kept[index] = changed(kept[index], by: 1)
    }

    public func revoke(id: String) -> Bool {
        let before = kept.count
        kept.removeAll { $0.id == id }
        return kept.count < before
    }

    private func changed(_ code: RegistrationCode, by uses: Int) -> RegistrationCode {
        RegistrationCode(
            id: code.id, digest: code.digest, uses: code.uses, usesLeft: min(code.uses, code.usesLeft + uses), expiresAt: code.expiresAt,
            createdAt: code.createdAt)
    }
}
