import Kernel

/// Deleting an account, the same for its owner (`AccountService.deleteAccount`) and an admin
/// (`AdminService.deactivate`): never the last admin; first what other features keep of it
/// (`AccountErasure`), then the tokens and hooks of its bots, then the account, its sessions and
/// codes, so that its email is free.
public struct AccountDeletion: Sendable {
    private let store: any AccountStore
    private let erasure: (any AccountErasure)?
    private let bots: (any BotStore)?

    /// Deletes from `store`, after `erasure` and the credentials of its bots in `bots` (none: the
    /// account alone, as unit tests have it).
    public init(store: any AccountStore, erasure: (any AccountErasure)?, bots: (any BotStore)? = nil) {
        self.store = store
        self.erasure = erasure
        self.bots = bots
    }

    /// Deletes account `id`.
    /// - Throws: `AdminRules.lastAdmin` for the server's last admin (nothing is removed).
    public func delete(_ id: UserID) async throws {
        if try await store.record(of: id)?.adminSince != nil, try await !store.setAdmin(id, since: nil) { throw AdminRules.lastAdmin }
        try await erasure?.erase(id)
        try await bots?.disable(ownedBy: id)
        try await store.delete(id)
    }
}
