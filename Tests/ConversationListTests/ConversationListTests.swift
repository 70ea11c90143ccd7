import ConversationList
import Foundation
import Kernel
import Observation
import TestSupport
import Testing

@Suite("ConversationList", .timeLimit(.minutes(1)))
struct ConversationListTests {
    let ada = UserID("u-ada"), grace = UserID("u-grace"), alan = UserID("u-alan")
    let start = Date(timeIntervalSince1970: 1_000_000)
    let activity = ManualActivity()

    func makeService(_ conversations: [Conversation] = []) -> StoredConversationListService {
        service(of: makeStore(conversations), for: ada)
    }

    func service(of store: InMemoryConversationListStore, for caller: UserID) -> StoredConversationListService {
        StoredConversationListService(
            store: store, choices: InMemoryNotificationChoiceStore(), builder: store.builder, caller: .verified(caller),
            clock: FixedClock(date: start))
    }

    func makeStore(_ conversations: [Conversation] = []) -> InMemoryConversationListStore {
        InMemoryConversationListStore(
            conversations: conversations, users: FixedDirectory(names: [ada: "Ada", grace: "Grace Hopper", alan: "Alan Turing"]),
            activity: activity)
    }

    func preview(_ text: String, at offset: TimeInterval) -> MessagePreview {
        MessagePreview(id: .random(), senderID: grace, text: text, sentAt: start + offset)
    }

    @Test("rows: newest activity first, one-to-one titled by the other person, unread counts from activity")
    func rows() async throws {
        let direct = Conversation(id: ConversationID("c1"), title: nil, memberIDs: [ada, grace], createdAt: start)
        let group = Conversation(id: ConversationID("c2"), title: "Team", memberIDs: [ada, grace, alan], createdAt: start + 5)
        let other = Conversation(id: ConversationID("c3"), title: nil, memberIDs: [grace, alan], createdAt: start)
        let service = makeService([direct, group, other])
        activity.set(ConversationActivity(lastMessage: preview("hi", at: 10), unreadCount: 2), for: direct.id)
        let rows = try await service.conversations()
        #expect(rows.map(\.id) == [direct.id, group.id])
        #expect(rows.map(\.title) == ["Grace Hopper", "Team"])
        #expect(rows.map(\.unreadCount) == [2, 0])
        #expect(rows[1].lastActivityAt == group.createdAt)
    }

    @Test("starting a one-to-one conversation twice returns the same one")
    func startDirectIsIdempotent() async throws {
        let service = makeService()
        let first = try await service.startDirect(with: grace)
        let second = try await service.startDirect(with: grace)
        #expect(first.id == second.id)
        #expect(try await service.conversations().count == 1)
    }

    @Test("oneself, unknown users and bad titles are refused")
    func refusals() async {
        let service = makeService()
        await #expect(throws: AppError.self) { try await service.startDirect(with: ada) }
        await #expect(throws: AppError(.notFound, "no user 'u-nobody'")) { try await service.startDirect(with: UserID("u-nobody")) }
        await #expect(throws: AppError.self) { try await service.createGroup(title: " ", memberIDs: [grace]) }
        await #expect(throws: AppError.self) { try await service.createGroup(title: "Team", memberIDs: [UserID("u-nobody")]) }
    }

    @Test("a group always includes its creator, once; the others it names are invited once")
    func groupMembers() async throws {
        let store = makeStore()
        let group = try await service(of: store, for: ada).createGroup(
            title: "Team", memberIDs: [grace, ada, grace])
        #expect(group.memberIDs == [ada], "Grace has not accepted Ada: invited, not a member")
        #expect(group.isGroup && group.title == "Team")
        let invitations = try await service(of: store, for: grace).invitations()
        #expect(invitations.map(\.id) == [group.id] && invitations[0].inviterID == ada && invitations[0].memberCount == 1)
    }

    @Test("a new group pays for the others it names, each once, before anyone is looked up: one the budget refuses looks up no one")
    func groupPaysFirst() async throws {
        let directory = CountingDirectory(names: [ada: "Ada", grace: "Grace Hopper", alan: "Alan Turing"])
        let builder = SummaryBuilder(users: directory, activity: activity)
        let refusal = AppError(.unavailable, "over budget")
        await #expect(throws: refusal) {
            try await builder.checkGroup(title: "Big", creator: ada, adding: (0..<1_000).map { UserID("u-\($0)") }) { _ in throw refusal }
        }
        #expect(directory.lookups == 0)
        var paid: [Int] = []
        let (_, members) = try await builder.checkGroup(title: "Team", creator: ada, adding: [grace, ada, alan, grace]) { paid.append($0) }
        #expect(paid == [2] && members == [ada, grace, alan] && directory.lookups == 1)
    }

    @Test(
        "entry: a blocked starter learns nothing; a full person makes room by a stranger's oldest, or the starter is told; a group of strangers asks again"
    )
    func entryRule() {
        func entry(accepts: Bool = false, everyone: Bool = true, blocked: Bool = false, again: Bool = false, pending: Int = 0, stranger: Bool = false)
            -> ConversationRules.Entry
        {
            ConversationRules.entry(
                acceptsStarter: accepts, acceptsEveryoneNamed: everyone, blocked: blocked, invitedByStarter: again,
                pending: pending, strangerInvitationWaits: stranger)
        }
        let full = ConversationRules.maxPendingInvitations
        #expect(entry(accepts: true) == .member && entry(accepts: true, blocked: true) == .none)
        #expect(entry(accepts: true, everyone: false) == .invited(makingRoom: false))
        #expect(entry(again: true) == .notInvited(.alreadyInvited))
        #expect(entry(pending: full, stranger: true) == .invited(makingRoom: true) && entry(pending: full) == .notInvited(.full))
        #expect([0, 1, 50, 51, 1_000].map { ConversationRules.conversationCost(naming: $0) } == [1, 1, 1, 2, 20])
    }

    @Test(
        "entrants of a later part: members, invitations and the invitation that makes room, with their events; the members added told to everyone by then"
    )
    func entrants() {
        func facts(_ person: UserID, accepts: Bool, pending: Int = 0, oldest: ConversationID? = nil) -> EntrantFacts {
            EntrantFacts(
                person: person, acceptsStarter: accepts, acceptsNamed: accepts ? 1 : 0, blockedStarter: false, invitedByStarter: false,
                pending: pending, oldestFromStranger: oldest)
        }
        let old = ConversationID("c-old"), id = ConversationID("c-new")
        let later = Entrants(
            [facts(grace, accepts: true), facts(alan, accepts: false, pending: ConversationRules.maxPendingInvitations, oldest: old)],
            starter: ada, othersNamed: 2, first: false)
        #expect(later.members == [grace] && later.invited == [alan] && later.notInvited.isEmpty)
        #expect(later.expiring.map(\.invitee) == [alan] && later.expiring.map(\.conversation) == [old])
        let events = later.events(in: id, everyone: [ada, grace])
        #expect(events.expired.map(\.change) == [.conversationLeft(old, by: alan)] && events.expired.map(\.seenBy) == [alan])
        #expect(events.added?.change == .conversationAdded(id) && events.added?.audience == [ada, grace])
        #expect(events.invitations.map(\.change) == [.conversationInvited(id, invitee: alan)])
        let first = Entrants([facts(alan, accepts: false)], starter: ada, othersNamed: 1, first: true)
        #expect(
            first.members == [ada] && first.events(in: id, everyone: [ada, grace]).added?.audience == [ada], "the first part tells its own members")
        #expect(Entrants([facts(alan, accepts: false)], starter: ada, othersNamed: 1, first: false).events(in: id, everyone: [ada]).added == nil)
    }

    @Test("a person's place decides what starting, accepting, declining and leaving do; refusals say why")
    func placeRules() throws {
        let id = ConversationID("c1")
        #expect([.member, .invited, nil].map(ConversationRules.entering) == [.stays, .accepts, .joins])
        #expect(try ConversationRules.accepting(.member, in: id) == false && ConversationRules.accepting(.invited, in: id))
        #expect(throws: AppError.self) { try ConversationRules.accepting(nil, in: id) }
        #expect(try ConversationRules.declining(.invited, in: id, exists: true) && !ConversationRules.declining(nil, in: id, exists: true))
        #expect(throws: AppError.self) { try ConversationRules.declining(.member, in: id, exists: true) }
        #expect(throws: AppError.self) { try ConversationRules.declining(nil, in: id, exists: false) }
        #expect(
            try ConversationRules.leaving(wasMember: true, in: id, exists: true) && !ConversationRules.leaving(wasMember: false, in: id, exists: true)
        )
        #expect(throws: AppError.self) { try ConversationRules.leaving(wasMember: false, in: id, exists: false) }
        #expect(ConversationRules.leftAudience(ada, members: [grace]) == [ada, grace])
        #expect(
            ConversationRules.directKey(grace, ada) == ConversationRules.directKey(ada, grace)
                && ConversationRules.directKey(ada, grace) == "u-ada|u-grace")
    }

    @Test("changes tick for new conversations of the user and for activity")
    func changes() async throws {
        let service = makeService()
        var ticks = try await service.changes().makeAsyncIterator()
        activity.set(.none, for: ConversationID("c1"))
        #expect(await ticks.next() != nil)
        _ = try await service.createGroup(title: "New", memberIDs: [grace])
        #expect(await ticks.next() != nil)
    }

    @MainActor
    @Test("a new conversation: one user without a title is one-to-one, a title makes a group, several users need a title")
    func startConversation() async throws {
        let model = ConversationListViewModel(service: makeService())
        await model.startConversation(with: [grace], title: nil)
        #expect(model.created.value?.isGroup == false)
        await model.startConversation(with: [grace], title: "Tea")
        #expect(model.created.value?.title == "Tea")
        #expect(model.created.value?.isGroup == true)
        await model.startConversation(with: [grace, alan], title: nil)
        #expect(model.created.error?.kind == .usage)
        #expect(model.list.value?.count == 2)
    }

    @MainActor
    @Test("the list view model resolves numbers, ids, titles and unique prefixes; ambiguity lists candidates")
    func resolve() async throws {
        let service = makeService([
            Conversation(id: ConversationID("c1"), title: "Team A", memberIDs: [ada], createdAt: start + 2),
            Conversation(id: ConversationID("c2"), title: "Team B", memberIDs: [ada], createdAt: start + 1),
            Conversation(id: ConversationID("c3"), title: nil, memberIDs: [ada, grace], createdAt: start),
        ])
        let model = ConversationListViewModel(service: service)
        await model.load()
        #expect(try model.resolve("1").id == ConversationID("c1"))
        #expect(try model.resolve("c2").title == "Team B")
        #expect(try model.resolve("grace hopper").id == ConversationID("c3"))
        #expect(try model.resolve("gra").id == ConversationID("c3"))
        #expect(throws: AppError.self) { try model.resolve("nobody") }
        do {
            _ = try model.resolve("team")
            Issue.record("ambiguous reference resolved")
        } catch let error as AppError {
            #expect(error == AppError(.conflict, "'team' could mean 2 conversations: 1. 'Team A' (c1), 2. 'Team B' (c2); use the number or the id"))
        }
        let numbered = [
            ConversationSummary(
                conversation: Conversation(id: ConversationID("c1"), title: "Team", memberIDs: [ada], createdAt: start), title: "Team",
                activity: .none),
            ConversationSummary(
                conversation: Conversation(id: ConversationID("c2"), title: nil, memberIDs: [ada, grace], createdAt: start),
                title: "1st Person", activity: .none),
        ]
        #expect(throws: AppError.self) { try ConversationReference.resolve("1", in: numbered) }
        #expect(try ConversationReference.resolve("2", in: numbered).id == ConversationID("c2"))
        for number in ["0", "4", "-1", "-9223372036854775808", "9223372036854775807", "99999999999999999999"] {
            #expect(throws: AppError.self) { try model.resolve(number) }
        }
    }

    @MainActor
    @Test("the list view model follows changes after start()")
    func liveList() async throws {
        let service = makeService()
        let model = ConversationListViewModel(service: service)
        await model.start()
        #expect(model.list == .loaded([]))
        let listening = Task { await model.listen() }
        _ = try await service.startDirect(with: grace)
        for await rows in Observations({ model.list.value?.count ?? 0 }) where rows == 1 { break }
        listening.cancel()
        #expect(model.list.value?.first?.title == "Grace Hopper")
    }

    @MainActor
    @Test("loading goes loading → failed, and a cancelled load is not an error")
    func loadStates() async {
        let failing = ConversationListViewModel(service: GatedListService(CallGate(.fail(AppError(.unavailable, "down")))))
        await failing.load()
        #expect(failing.list.error?.kind == .unavailable)

        let gate = CallGate(.hang)
        let model = ConversationListViewModel(service: GatedListService(gate))
        let task = Task { await model.load() }
        await gate.waitForCall()
        #expect(model.list == .loading)
        task.cancel()
        await task.value
        #expect(model.list == .idle)
    }
}
