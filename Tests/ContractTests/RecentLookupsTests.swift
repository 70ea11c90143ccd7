import Chat
import ChatLive
import Kernel
import Synchronization
import Testing

/// What a burst of sends that mention someone reads once: people's blocks and names, kept a
/// moment; a block made by this process forgotten at once.
@Suite("Blocks and names kept a moment")
struct RecentLookupsTests {
    /// A clock the test moves.
    final class Clock: Sendable {
        private let start = ContinuousClock.now
        private let elapsed = Mutex(Duration.zero)
        func advance(_ by: Duration) { elapsed.withLock { $0 += by } }
        func now() -> ContinuousClock.Instant { start + elapsed.withLock { $0 } }
    }

    /// Blocks and names the test sets, counting how often each is asked.
    final class Directory: ConversationMembership, MemberNames {
        let blocked = Mutex<Set<UserID>>([])
        let names = Mutex<[UserID: String]>([:])
        let blockLookups = Atomic(0), nameLookups = Atomic(0)

        func members(of conversationID: ConversationID) async throws -> [UserID]? { nil }

        func blocks(involving user: UserID) async throws -> (blocked: Set<UserID>, blockers: Set<UserID>) {
            blockLookups.add(1, ordering: .relaxed)
            return (blocked.withLock { $0 }, [])
        }

        func displayNames(of ids: [UserID]) async throws -> [UserID: String] {
            nameLookups.add(1, ordering: .relaxed)
            return names.withLock { names in names.filter { ids.contains($0.key) } }
        }
    }

    @Test("blocks are asked once a second; a block of this process is seen at once, another's within a second")
    func blocks() async throws {
        let clock = Clock(), directory = Directory()
        let cache = MembershipCache(directory, now: clock.now)
        let (ada, mallory) = (UserID("ada"), UserID("mallory"))
        for _ in 0..<5 { #expect(try await cache.blocks(involving: ada).blocked.isEmpty) }
        #expect(directory.blockLookups.load(ordering: .relaxed) == 1)

        // Another process blocks: not seen until the second is up.
        directory.blocked.withLock { _ = $0.insert(mallory) }
        #expect(try await cache.blocks(involving: ada).blocked.isEmpty)
        clock.advance(MembershipCache.blocksKeptFor)
        #expect(try await cache.blocks(involving: ada).blocked == [mallory])

        // This process unblocks: seen at once.
        directory.blocked.withLock { $0 = [] }
        cache.forgetBlocks(of: [ada, mallory])
        #expect(try await cache.blocks(involving: ada).blocked.isEmpty)
        #expect(directory.blockLookups.load(ordering: .relaxed) == 3)
    }

    @Test("names are asked once a second, only for those not kept; a rename is seen within a second")
    func names() async throws {
        let clock = Clock(), directory = Directory()
        let (ada, grace, nobody) = (UserID("ada"), UserID("grace"), UserID("nobody"))
        directory.names.withLock { $0 = [ada: "Ada", grace: "Grace"] }
        let names = RecentNames(directory, now: clock.now)
        #expect(try await names.displayNames(of: [ada]) == [ada: "Ada"])
        #expect(try await names.displayNames(of: [ada, grace]) == [ada: "Ada", grace: "Grace"])
        #expect(try await names.displayNames(of: [ada, grace]) == [ada: "Ada", grace: "Grace"])
        #expect(directory.nameLookups.load(ordering: .relaxed) == 2, "Ada's name kept, Grace's asked once")

        directory.names.withLock { $0[grace] = "Grace Hopper" }
        #expect(try await names.displayNames(of: [grace]) == [grace: "Grace"])
        clock.advance(RecentNames.keptFor)
        #expect(try await names.displayNames(of: [grace, nobody]) == [grace: "Grace Hopper"])
        #expect(directory.nameLookups.load(ordering: .relaxed) == 3)
    }
}
