import ConversationList
import Kernel
import Synchronization
import TestSupport
import Testing

/// Who may invite whom, at what cost (the security review of 2026-11-27, M2, M5 and L7), on
/// every backend.
@Suite("Invitation contract", .serialized, .timeLimit(.minutes(5)))
struct InvitationContractTests {
    @Test(
        "100 throw-away accounts cannot make anyone unreachable: a new invitation takes the oldest stranger's place; a second one of the inviter's is refused, and they are told",
        heavyTests, arguments: BackendContractTests.backends)
    func throwAwayAccounts(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let victim = try await harness.signUp("Target"), asVictim = harness.services(for: victim).conversations
        var spam: [ConversationID] = []
        for index in 0..<ConversationRules.maxPendingInvitations {
            let spammer = try await harness.signUp("Spam \(index)")
            let group = try await harness.services(for: spammer).conversations.createGroup(title: "WIN A PRIZE", memberIDs: [victim.id])
            #expect(group.notInvited == nil)
            spam.append(group.id)
        }
        #expect(try await asVictim.invitations().count == ConversationRules.maxPendingInvitations)

        let friend = try await harness.signUp("Old Friend"), asFriend = harness.services(for: friend).conversations
        let direct = try await asFriend.startDirect(with: victim.id)
        #expect(direct.notInvited == nil && direct.memberIDs == [friend.id])
        let waiting = try await asVictim.invitations()
        #expect(waiting.count == ConversationRules.maxPendingInvitations && waiting.first?.id == direct.id, "the newest reaches her")
        #expect(!waiting.contains { $0.id == spam[0] } && waiting.contains { $0.id == spam[1] }, "the oldest stranger's invitation gave way")
        _ = try await asVictim.accept(direct.id)
        #expect(try await asVictim.conversations().map(\.id) == [direct.id])

        let again = try await harness.services(for: harness.signUp("Spam again")).conversations
        let first = try await again.createGroup(title: "WIN", memberIDs: [victim.id])
        let second = try await again.createGroup(title: "WIN AGAIN", memberIDs: [victim.id])
        #expect(first.notInvited == nil)
        #expect(second.notInvited == [NotInvited(userID: victim.id, reason: .alreadyInvited)], "the inviter is told")
    }

    @Test(
        "one acceptance is not consent to groups with strangers: a group holding anyone she does not accept is an invitation",
        arguments: BackendContractTests.backends)
    func groupsOfStrangers(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace"), mallory = try await harness.signUp("Mallory")
        let asAda = harness.services(for: ada).conversations, asGrace = harness.services(for: grace).conversations
        _ = try await harness.direct(ada, grace)
        let party = try await asAda.createGroup(title: "Party", memberIDs: [grace.id, mallory.id])
        #expect(party.memberIDs == [ada.id], "Grace accepts Ada, not Mallory")
        #expect(try await asGrace.invitations().map(\.id) == [party.id])
        let ours = try await asAda.createGroup(title: "Just us", memberIDs: [grace.id])
        #expect(Set(ours.memberIDs) == [ada.id, grace.id], "a group of people she accepts she joins at once")

        _ = try await harness.direct(grace, mallory)
        _ = try await harness.services(for: mallory).conversations.startDirect(with: ada.id)
        let friends = try await asAda.createGroup(title: "Friends", memberIDs: [grace.id, mallory.id])
        #expect(Set(friends.memberIDs) == [ada.id, grace.id, mallory.id], "each accepts everyone named")
    }

    @Test(
        "a group spends from its starter's conversation budget by its size; a one-to-one one unit; written in parts of 100, it invites everyone once",
        arguments: [ContractBackend.sqlite, .postgres])
    func groupCost(_ backend: ContractBackend) async throws {
        let spent = Mutex<[Int]>([])
        let harness = try await BackendHarness(
            backend,
            budget: UsageBudget { action, _, cost in
                if action == .conversation { spent.withLock { $0.append(cost) } }
            })
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada")
        var people: [BackendHarness.User] = []
        for index in 0..<120 { people.append(try await harness.signUp("P\(index)")) }
        let group = try await harness.services(for: ada).conversations.createGroup(title: "Big", memberIDs: people.map(\.id))
        _ = try await harness.services(for: ada).conversations.startDirect(with: people[0].id)
        #expect(spent.withLock { $0 } == [3, 1], "120 people: 3 units of 50")
        #expect(group.memberIDs == [ada.id])
        for person in people {
            #expect(try await harness.services(for: person).conversations.invitations().map(\.id) == [group.id], "\(person.id)")
        }
    }
}
