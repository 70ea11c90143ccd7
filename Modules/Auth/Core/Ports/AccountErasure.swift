import Kernel

/// What the other features remove of an account being deleted, before Auth lets go of it: its
/// messages, deleted for everyone (tombstones stay; texts, files and their words go), and its
/// profile, which becomes "Deleted user". Auth does not import them; the composition root
/// connects this port. Erasing twice is erasing once, so a deletion cut short is finished by
/// running it again.
public protocol AccountErasure: Sendable {
    /// Removes what the features keep of `user`.
    func erase(_ user: UserID) async throws
}

/// What the other features show of a suspension: the account's name marked suspended where
/// others see it. Auth does not import Profile; the composition root connects this port.
public protocol SuspensionShown: Sendable {
    /// Marks `user` suspended, or no longer.
    func setSuspended(_ user: UserID, _ suspended: Bool) async throws
}

/// Deleting an account, the same for its owner (`AccountService.deleteAccount`) and an admin
/// (`AdminService.deleteAccount`): never the last admin; first what other features keep of it
/// (`AccountErasure`), then the account, its sessions and codes, so that its email is free.
public struct AccountDeletion: Sendable {
    private let store: any AccountStore
    private let erasure: (any AccountErasure)?

    /// Deletes from `store`, after `erasure` (none: the account alone, as unit tests have it).
    public init(store: any AccountStore, erasure: (any AccountErasure)?) {
        self.store = store
        self.erasure = erasure
    }

    /// Deletes account `id`.
    /// - Throws: `AdminRules.lastAdmin` for the server's last admin (nothing is removed).
    public func delete(_ id: UserID) async throws {
        if try await store.record(of: id)?.adminSince != nil, try await !store.setAdmin(id, since: nil) { throw AdminRules.lastAdmin }
        try await erasure?.erase(id)
        try await store.delete(id)
    }
}
