import Foundation
import GRDB
import Kernel
import ServiceGraph
import Testing

/// What only the SQLite backend can show: the file never holds a usable token, and a session
/// revoked through one process stops working in another.
@Suite("SQLite sessions", .timeLimit(.minutes(1)))
struct SessionStorageTests {
    @Test("the database keeps a digest of each token, never the token")
    func onlyDigests() async throws {
        let harness = try await BackendHarness(.sqlite)
        defer { harness.remove() }
        let ada = try await harness.signUp("Ada")
        let laptop = try await harness.accounts.signIn(email: ada.email, password: "password-Ada")
        let bytes = try harness.storeBytes()
        #expect(!bytes.isEmpty)
        for token in [ada.token, laptop.token] {
            #expect(!bytes.contains { $0.range(of: Data(token.utf8)) != nil }, "a token is stored in plain text")
        }
    }

    @Test("a session revoked by one process stops working in another within the verification time")
    func revokedElsewhere() async throws {
        let first = try await BackendHarness(.sqlite)
        defer { first.remove() }
        let second = try await BackendHarness(.sqlite, sharing: first)
        let ada = try await first.signUp("Ada")
        let elsewhere = second.services(for: ada)
        #expect(try await elsewhere.profiles.myProfile().id == ada.id)
        let revoked = ContinuousClock.now
        try await first.accounts.revoke(token: ada.token)
        // The other process trusts its last check for up to 2 s (GraphOptions.verificationCacheTime);
        // look until it refuses, and fail past 5 s.
        while (try? await elsewhere.profiles.myProfile()) != nil {
            #expect(ContinuousClock.now - revoked < .seconds(5), "still accepted 5 s after revocation")
            if ContinuousClock.now - revoked >= .seconds(5) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(ContinuousClock.now - revoked < .seconds(5))
        await #expect(throws: AppError.notSignedIn) { try await elsewhere.events.liveMessages(in: nil) }
    }

    @Test("a database from before the one event sequence opens migrated: cursors go on after its messages")
    func upgradeKeepsCursors() async throws {
        let before = try await BackendHarness(.sqlite)
        defer { before.remove() }
        let ada = try await before.signUp("Ada"), grace = try await before.signUp("Grace")
        let direct = try await before.direct(ada, grace)
        let old = try await before.services(for: ada).chat.send(id: .random(), text: "old", to: direct.id)
        // As the previous version left it: no store sequence, no recorded changes.
        let file = before.folder.appendingPathComponent("contract.sqlite").path
        let raw = try DatabaseQueue(path: file)
        try await raw.write { db in
            try db.execute(
                sql: """
                    DROP TABLE store_sequence; DROP TABLE store_changes;
                    DELETE FROM grdb_migrations WHERE identifier IN ('store-1', 'chat-4')
                    """)
        }
        try raw.close()

        let after = try await BackendHarness(.sqlite, sharing: before)
        let asGrace = after.services(for: grace)
        let new = try await after.services(for: ada).chat.send(id: .random(), text: "new", to: direct.id)
        let (oldCursor, newCursor) = (try #require(old.cursor), try #require(new.cursor))
        #expect(newCursor.follows(oldCursor))
        #expect(try await asGrace.events.events(after: oldCursor, limit: 10).compactMap(\.message?.text) == ["new"])
    }
}
