import Foundation
import Kernel

/// What a store read of a person a new conversation names: the facts `ConversationRules.entry`
/// decides by.
public struct EntrantFacts: Sendable {
    public let person: UserID
    /// They accept the starter.
    public let acceptsStarter: Bool
    /// How many of the others named (besides them) they accept.
    public let acceptsNamed: Int
    /// They blocked the starter.
    public let blockedStarter: Bool
    /// An invitation of the starter's waits for them already.
    public let invitedByStarter: Bool
    /// Invitations waiting for them.
    public let pending: Int
    /// Their oldest waiting invitation from a stranger (someone they do not accept), by when it
    /// was made and then by id: read when `ConversationRules.maxPendingInvitations` wait, else `nil`.
    public let oldestFromStranger: ConversationID?

    public init(
        person: UserID, acceptsStarter: Bool, acceptsNamed: Int, blockedStarter: Bool, invitedByStarter: Bool, pending: Int,
        oldestFromStranger: ConversationID?
    ) {
        self.person = person
        self.acceptsStarter = acceptsStarter
        self.acceptsNamed = acceptsNamed
        self.blockedStarter = blockedStarter
        self.invitedByStarter = invitedByStarter
        self.pending = pending
        self.oldestFromStranger = oldestFromStranger
    }
}

/// How the people of one part of a new conversation enter it, each as `ConversationRules.entry`
/// says, and the events that tell them: decided once for every store, which writes the outcome.
public struct Entrants: Sendable {
    /// Who is a member at once (the starter first, in the first part).
    public private(set) var members: [UserID]
    /// Who is invited.
    public private(set) var invited: [UserID] = []
    /// The invitations that expire to make room for one (`ConversationRules.maxPendingInvitations`):
    /// whose, and to which conversation.
    public private(set) var expiring: [(invitee: UserID, conversation: ConversationID)] = []
    /// Who was not invited, and why (the starter is told).
    public private(set) var notInvited: [NotInvited] = []
    private let first: Bool

    /// Decides for `facts`, the people of a part of a conversation `starter` starts naming
    /// `othersNamed` people besides themselves; in the `first` part, the starter is a member too.
    public init(_ facts: [EntrantFacts], starter: UserID, othersNamed: Int, first: Bool) {
        self.first = first
        members = first ? [starter] : []
        for fact in facts {
            switch ConversationRules.entry(
                acceptsStarter: fact.acceptsStarter, acceptsEveryoneNamed: fact.acceptsNamed >= othersNamed - 1, blocked: fact.blockedStarter,
                invitedByStarter: fact.invitedByStarter, pending: fact.pending, strangerInvitationWaits: fact.oldestFromStranger != nil)
            {
            case .member: members.append(fact.person)
            case .invited(let makingRoom):
                invited.append(fact.person)
                if makingRoom, let oldest = fact.oldestFromStranger { expiring.append((fact.person, oldest)) }
            case .notInvited(let reason): notInvited.append(NotInvited(userID: fact.person, reason: reason))
            case .none: break
            }
        }
    }

    /// The events the part records in conversation `id`, in this order, once written
    /// (`everyone`: its members then): each expired invitation, to its invitee; the members
    /// added (`ConversationRules.addedAudience`: those written before learn of them), if any;
    /// each invitation, to its invitee.
    public func events(in id: ConversationID, everyone: [UserID]) -> (
        expired: [(change: StoreChange, seenBy: UserID)], added: (change: StoreChange, audience: [UserID])?,
        invitations: [(change: StoreChange, seenBy: UserID)]
    ) {
        (
            expiring.map { (.conversationLeft($0.conversation, by: $0.invitee), $0.invitee) },
            members.isEmpty
                ? nil : (.conversationAdded(id), ConversationRules.addedAudience(first: first, members: members, everyone: everyone)),
            invited.map { (.conversationInvited(id, invitee: $0), $0) }
        )
    }
}
