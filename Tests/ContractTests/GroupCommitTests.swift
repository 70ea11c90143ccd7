import Chat
import Foundation
import GRDB
import Kernel
import Testing

/// The stores keep sends that arrive together in one transaction (`MessageWriter`); a send that
/// fails while being written must not take the others down with it.
@Suite("Group commit", .timeLimit(.minutes(3)))
struct GroupCommitTests {
    @Test(
        "a send the store refuses while writing it fails alone; the sends that came with it are stored once, in order",
        arguments: [ContractBackend.sqlite, .postgres])
    func failingSendFailsAlone(_ backend: ContractBackend) async throws {
        let harness = try await BackendHarness(backend)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada"), grace = try await harness.signUp("Grace")
        let asAda = harness.services(for: ada)
        let direct = try await harness.direct(ada, grace)
        // A trigger stands for a failure halfway through a send's writes (a full disk, a damaged
        // page): the message's row is refused after the store's sequence has moved.
        try await Self.refuseBoom(in: harness)
        let texts = (0..<80).map { $0 % 20 == 7 ? "boom" : "m\($0)" }
        let outcomes = await withTaskGroup(of: (String, Message?).self) { group in
            for text in texts {
                group.addTask { (text, try? await asAda.chat.send(id: .random(), text: text, to: direct.id)) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0.1 == nil }.map(\.0) == ["boom", "boom", "boom", "boom"])
        let stored = try await harness.services(for: grace).chat.latestMessages(in: direct.id, limit: 500).messages
        #expect(Set(stored.map(\.text)) == Set(texts.filter { $0 != "boom" }) && stored.count == texts.count - 4)
        let cursors = stored.compactMap(\.cursor)
        #expect(cursors.count == stored.count && zip(cursors, cursors.dropFirst()).allSatisfy { $1.follows($0) })
    }

    /// Makes the harness's store refuse to store a message whose text is `boom`, as another
    /// program on the database would.
    private static func refuseBoom(in harness: BackendHarness) async throws {
        if harness.postgresURL != nil {
            _ = try await harness.psql(
                """
                CREATE FUNCTION refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
                CREATE TRIGGER refuse_boom BEFORE INSERT ON messages FOR EACH ROW WHEN (NEW.text = 'boom') EXECUTE FUNCTION refuse_boom();
                """)
            return
        }
        let other = try DatabaseQueue(path: harness.folder.appendingPathComponent("contract.sqlite").path)
        try await other.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER refuse_boom BEFORE INSERT ON messages WHEN NEW.text = 'boom'
                    BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                    """)
        }
    }
}
