import Kernel

/// What the list needs of Auth's bots, through the composition root: the bots a person keeps,
/// which leave a conversation with them (a bot acts only where its owner is).
public protocol OwnedBots: Sendable {
    /// The bots `owner` keeps.
    func bots(keptBy owner: UserID) async throws -> [UserID]
}
