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
