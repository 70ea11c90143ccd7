import Kernel
import Observation

/// The invitations waiting for the signed-in user, and answering them.
@MainActor
@Observable
public final class InvitationsViewModel {
    /// The waiting invitations, newest first.
    public private(set) var invitations: Loadable<[Invitation]> = .idle
    /// The conversation the last accepted invitation joined.
    public private(set) var accepted: Loadable<ConversationSummary> = .idle
    /// The conversation of the last declined invitation.
    public private(set) var declined: Loadable<ConversationID> = .idle

    private let service: any ConversationListService

    /// Creates the view model over a list service.
    public init(service: any ConversationListService) { self.service = service }

    /// Loads the invitations.
    public func load() async {
        invitations = .loading
        invitations = await .from { [service] in try await service.invitations() }
    }

    /// Accepts the invitation `reference` names: a number of the list, a conversation id, or
    /// the start of a title (`ConversationReference`).
    public func accept(_ reference: String) async {
        accepted = .loading
        accepted = await .from { [service] in try await service.accept(try await self.invitation(reference).id) }
        if accepted.value != nil { await load() }
    }

    /// Declines the invitation `reference` names.
    public func decline(_ reference: String) async {
        declined = .loading
        declined = await .from { [service] in
            let id = try await self.invitation(reference).id
            try await service.decline(id)
            return id
        }
        if declined.value != nil { await load() }
    }

    private func invitation(_ reference: String) async throws -> Invitation {
        if invitations.value == nil { await load() }
        if let error = invitations.error { throw error }
        return try ConversationReference.resolve(reference, in: invitations.value ?? [])
    }
}
