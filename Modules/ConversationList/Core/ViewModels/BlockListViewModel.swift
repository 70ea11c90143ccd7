import Kernel
import Observation

/// The people the signed-in user has blocked, and blocking or unblocking someone.
@MainActor
@Observable
public final class BlockListViewModel {
    /// Whom the user has blocked.
    public private(set) var blocked: Loadable<[UserID]> = .idle
    /// The person the last `block` or `unblock` concerned.
    public private(set) var changed: Loadable<UserID> = .idle

    private let service: any ConversationListService

    /// Creates the view model over a list service.
    public init(service: any ConversationListService) { self.service = service }

    /// Loads whom the user has blocked.
    public func load() async {
        blocked = .loading
        blocked = await .from { [service] in try await service.blockedUsers() }
    }

    /// Blocks `userID`.
    public func block(_ userID: UserID) async {
        changed = .loading
        changed = await .from { [service] in
            try await service.block(userID)
            return userID
        }
    }

    /// Unblocks `userID`.
    public func unblock(_ userID: UserID) async {
        changed = .loading
        changed = await .from { [service] in
            try await service.unblock(userID)
            return userID
        }
    }
}
