import Foundation
import TestSupport
import Testing

/// Schemathesis (from PyPI) drives every operation of the OpenAPI document with generated
/// requests, valid and broken, signed in and not; the server must never answer 5xx or fall over.
@Suite("API fuzzing", .timeLimit(.minutes(10)))
struct APIFuzzTests {
    /// The version the tests pin, installed into `.build/fuzz-venv` (by `.ci/run`, or here on first use).
    static let schemathesis = "schemathesis==4.32.5"
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let venv = packageRoot.appendingPathComponent(".build/fuzz-venv")

    @Test("generated requests to every route: no 5xx, the server keeps running, and the fuzzer reaches past auth and lookups")
    func fuzzEveryRoute() async throws {
        let tool = try await Self.installed()
        // The fuzzer signs up hundreds of times from one address: past the limit it would meet
        // nothing but 429s.
        let world = try await ServerWorld { _ in ["--sign-up-burst", "100000"] }
        defer { world.remove() }
        let server = world.server
        let config = try await Self.testData(world)
        let (status, output) = try await Self.run(
            tool,
            [
                "--config-file", config.path, "run", server.url + "/v1/openapi.json",
                "--checks", "not_a_server_error", "--max-examples", "40",
                "--workers", "1", "--seed", "20261122", "--no-color",
            ], in: world.folder)
        let summary = output.split(separator: "\n").filter { $0.contains("generated") || $0.contains("Selected") || $0.contains("Tested") }
        print("schemathesis: " + summary.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; "))
        #expect(status == 0, "schemathesis found failures, or a warning it fails on:\n\(output.suffix(4_000))")
        let generated = output.firstMatch(of: /(\d+) generated/).flatMap { Int($0.output.1) } ?? 0
        #expect(generated > 500, "too few cases generated: \(summary)")
        #expect(!server.log.contains(" error "), "the server logged errors:\n\(server.log.suffix(2_000))")
        #expect(try await HTTPProbe(base: server.url).send("GET", "/v1/openapi.json").status == 200)
    }

    /// Real values for the fuzzer to use most of the time (a conversation, a message, a cursor, a
    /// user), so that requests reach the code behind the lookups, written as a schemathesis config
    /// file. Sign-out gets a session of its own: with the fuzzer's token it would end that session
    /// and leave every later request a 401. The run fails if requests still end at the door
    /// (only 401s, or only 404s) or are rate-limited. Schemathesis still warns that three
    /// operations mostly refuse what it sends, and rightly: the schema gives a cursor's shape but
    /// not the store it must name (400), and the events socket answers a plain GET with 426. A
    /// send's coverage phase is left out: its every boundary case names conversation `0` (404),
    /// which the dictionaries do not reach, and sends are fuzzed in the other phases.
    static func testData(_ world: ServerWorld) async throws -> URL {
        let probe = world.probe
        let grace = try await probe.signUp("Grace")
        let credentials = ["email": "fuzz@example.com", "password": "password-Fuzz"]
        let signedUp = try await probe.send("POST", "/v1/auth/signup", json: credentials.merging(["displayName": "Fuzz"]) { $1 })
        let token = try #require(signedUp.json?["token"] as? String, "\(signedUp.status)")
        let fuzzer = try #require((signedUp.json?["account"] as? [String: Any])?["id"] as? String)
        let signedIn = try await probe.send("POST", "/v1/auth/signin", json: credentials)
        let signOutToken = try #require(signedIn.json?["token"] as? String, "\(signedIn.status)")
        let direct = try await probe.send("POST", "/v1/conversations/direct", token: token, json: ["userID": grace.id])
        let conversation = try #require(direct.json?["id"] as? String, "\(direct.status)")
        // To leave, to decline, and to block, each apart from the conversation the rest uses.
        let group = try await probe.send("POST", "/v1/conversations/groups", token: token, json: ["title": "To leave", "memberIDs": [grace.id]])
        let leavable = try #require(group.json?["id"] as? String, "\(group.status)")
        let stranger = try await probe.signUp("Stranger")
        let invited = try await probe.send("POST", "/v1/conversations/groups", token: stranger.token, json: ["title": "Hi", "memberIDs": [fuzzer]])
        let invitation = try #require(invited.json?["id"] as? String, "\(invited.status)")
        let message = "fuzz-1"
        let sent = try await probe.send("PUT", "/v1/conversations/\(conversation)/messages/\(message)", token: token, json: ["text": "hello"])
        let cursor = try #require(sent.json?["cursor"] as? String, "\(sent.status)")
        // One to edit, and one to delete, apart, so that the edits do not meet a tombstone.
        let deletable = "fuzz-2"
        let another = try await probe.send("PUT", "/v1/conversations/\(conversation)/messages/\(deletable)", token: token, json: ["text": "bye"])
        try #require(another.status == 200, "\(another.status)")
        // A file sent, for the file routes and the list of a conversation's files to page from.
        let uploaded = try await probe.send(
            "PUT", "/v1/conversations/\(conversation)/messages/fuzz-3/files?name=plan.txt", token: token, body: Data("plan".utf8))
        let file = try #require(uploaded.json?["id"] as? String, "\(uploaded.status)")
        let carried = try await probe.send(
            "PUT", "/v1/conversations/\(conversation)/messages/fuzz-3", token: token, json: ["text": "", "attachments": [file]])
        try #require(carried.status == 200, "\(carried.status)")
        // A message of Grace's to report, and a report of it to resolve.
        let reportable = "grace-1"
        _ = try await probe.send("POST", "/v1/invitations/\(conversation)/accept", token: grace.token)
        let graces = try await probe.send(
            "PUT", "/v1/conversations/\(conversation)/messages/\(reportable)", token: grace.token, json: ["text": "report me"])
        try #require(graces.status == 200, "\(graces.status)")
        let reported = try await probe.send(
            "POST", "/v1/conversations/\(conversation)/messages/\(reportable)/reports", token: token, json: ["reason": "fuzzing"])
        let report = try #require(reported.json?["id"] as? String, "\(reported.status)")
        // An admin for the admin routes (made on the store, as an operator does), whose actions
        // name throw-away accounts alone (no emails learnt from answers): suspending or
        // deactivating the fuzzer's own account would leave the rest of the run nothing but 401s.
        let admin = try await probe.signUp("Admin"), target = "target-\(UUID().uuidString.prefix(8))@example.com"
        _ = try await probe.send("POST", "/v1/auth/signup", json: ["email": target, "displayName": "Target", "password": "password-Target"])
        let adminEmail = try #require(try await probe.send("GET", "/v1/auth/session", token: admin.token).json?["email"] as? String)
        // Accounts to deactivate, each once, apart from the target the other actions name.
        var leaving: [String] = []
        for index in 0..<8 {
            let email = "leaving\(index)-\(UUID().uuidString.prefix(8))@example.com"
            _ = try await probe.send("POST", "/v1/auth/signup", json: ["email": email, "displayName": "Leaving", "password": "password-Leaving"])
            leaving.append(email)
        }
        let grant = Process()
        grant.executableURL = LocalMachine.messageai.deletingLastPathComponent().appendingPathComponent("messageai-server")
        grant.arguments = ["admin", "grant", adminEmail, "--store", world.server.databasePath]
        (grant.standardOutput, grant.standardError) = (FileHandle.nullDevice, FileHandle.nullDevice)
        try grant.run()
        try #require(await grant.ended() == 0, "the operator made the admin")
        // Invitation codes to revoke.
        var invites: [String] = []
        for _ in 0..<8 {
            let made = try await probe.send("POST", "/v1/admin/invites", token: admin.token, json: ["uses": 1, "lifetime": 3_600])
            invites.append(try #require((made.json?["invite"] as? [String: Any])?["id"] as? String, "\(made.status)"))
        }
        // A bot of the fuzzer's in a group of its own, tokens to revoke, bots to delete and a hook to post to.
        let bots = try await probe.send("POST", "/v1/conversations/groups", token: token, json: ["title": "Bots", "memberIDs": [grace.id]])
        let botGroup = try #require(bots.json?["id"] as? String, "\(bots.status)")
        for name in ["Fuzzbot", "Doomed0", "Doomed1", "Doomed2"] {
            try #require(try await probe.send("POST", "/v1/bots", token: token, json: ["name": name]).status == 201)
        }
        try #require(try await probe.send("POST", "/v1/bots/add", token: token, json: ["bot": "Fuzzbot", "conversation": botGroup]).status == 204)
        var botTokens: [String] = []
        for _ in 0..<8 {
            let made = try await probe.send(
                "POST", "/v1/bots/tokens", token: token, json: ["bot": "Fuzzbot", "scope": ["abilities": ["send"], "conversations": [botGroup]]])
            botTokens.append(try #require((made.json?["info"] as? [String: Any])?["id"] as? String, "\(made.status)"))
        }
        let hooked = try await probe.send("POST", "/v1/bots/hooks", token: token, json: ["bot": "Fuzzbot", "conversation": botGroup])
        let hook = try #require((hooked.json?["hook"] as? [String: Any])?["id"] as? String, "\(hooked.status)")
        let secret = try #require(hooked.json?["secret"] as? String)
        let config = world.folder.appendingPathComponent("schemathesis.toml")
        try """
        headers = { Authorization = "Bearer \(token)" }

        [warnings]
        fail-on = ["missing_auth", "missing_test_data", "rate_limited"]

        [dictionaries]
        cursors = { values = ["\(cursor)"] }
        conversations = { values = ["\(conversation)"] }
        leavable = { values = ["\(leavable)"] }
        invitations = { values = ["\(invitation)"] }
        strangers = { values = ["\(stranger.id)"] }
        messages = { values = ["\(message)"] }
        deletable = { values = ["\(deletable)"] }
        emoji = { values = ["👍", "🎉"] }
        users = { values = ["\(grace.id)"] }
        files = { values = ["\(file)"] }
        reportable = { values = ["\(reportable)"] }
        reports = { values = ["\(report)"] }
        targets = { values = ["\(target)"] }
        leaving = { values = [\(leaving.map { "\"\($0)\"" }.joined(separator: ", "))] }
        invites = { values = [\(invites.map { "\"\($0)\"" }.joined(separator: ", "))] }
        bots = { values = ["Fuzzbot"] }
        doomed = { values = ["Doomed0", "Doomed1", "Doomed2"] }
        botgroups = { values = ["\(botGroup)"] }
        credentials = { values = [\(botTokens.map { "\"\($0)\"" }.joined(separator: ", "))] }
        hooks = { values = ["\(hook)"] }
        secrets = { values = ["\(secret)"] }

        [parameters]
        "query.after" = { dictionary = "cursors", probability = 0.7 }
        "path.conversation" = { dictionary = "conversations", probability = 0.7 }
        "query.conversation" = { dictionary = "conversations", probability = 0.7 }
        "query.before" = { dictionary = "messages", probability = 0.5 }
        "query.q" = { dictionary = "users", probability = 0.5 }
        "body.userID" = { dictionary = "users", probability = 0.7 }
        "path.user" = { dictionary = "strangers", probability = 0.7 }
        "path.file" = { dictionary = "files", probability = 0.7 }

        [[operations]]
        include-name = "DELETE /v1/auth/session"
        headers = { Authorization = "Bearer \(signOutToken)" }

        [[operations]]
        include-name = "PATCH /v1/conversations/{conversation}/messages/{message}"
        parameters = { "path.conversation" = { dictionary = "conversations", probability = 0.9 }, "path.message" = { dictionary = "messages", probability = 0.9 } }

        [[operations]]
        include-name = "POST /v1/conversations/{conversation}/messages/{message}/reactions"
        parameters = { "path.conversation" = { dictionary = "conversations", probability = 0.9 }, "path.message" = { dictionary = "messages", probability = 0.9 }, "body.emoji" = { dictionary = "emoji", probability = 0.7 } }

        [[operations]]
        include-name = "DELETE /v1/conversations/{conversation}/messages/{message}"
        parameters = { "path.conversation" = { dictionary = "conversations", probability = 0.9 }, "path.message" = { dictionary = "deletable", probability = 0.9 } }

        [[operations]]
        include-name = "PUT /v1/conversations/{conversation}/messages/{message}"
        parameters = { "path.conversation" = { dictionary = "conversations", probability = 0.9 }, "body.replyTo" = { dictionary = "messages", probability = 0.9 } }
        phases = { coverage = { enabled = false } }

        [[operations]]
        include-name = "GET /v1/conversations/{conversation}/files"
        parameters = { "path.conversation" = { dictionary = "conversations", probability = 0.9 }, "query.before" = { dictionary = "files", probability = 0.7 } }

        [[operations]]
        include-name = "POST /v1/conversations/{conversation}/messages/{message}/reports"
        parameters = { "path.conversation" = { dictionary = "conversations", probability = 0.9 }, "path.message" = { dictionary = "reportable", probability = 0.9 } }

        [[operations]]
        include-path-regex = "^/v1/admin/"
        exclude-name = ["POST /v1/admin/users/deactivate", "POST /v1/admin/invites/revoke"]
        headers = { Authorization = "Bearer \(admin.token)" }
        parameters = { "body.email" = { dictionary = "targets", probability = 1.0 }, "query.email" = { dictionary = "targets", probability = 0.9 }, "body.id" = { dictionary = "reports", probability = 0.7 } }
        phases = { stateful = { enabled = false } }

        [[operations]]
        include-name = "POST /v1/admin/users/deactivate"
        headers = { Authorization = "Bearer \(admin.token)" }
        parameters = { "body.email" = { dictionary = "leaving", probability = 1.0 } }
        phases = { stateful = { enabled = false } }

        [[operations]]
        include-name = "POST /v1/admin/invites/revoke"
        headers = { Authorization = "Bearer \(admin.token)" }
        parameters = { "body.id" = { dictionary = "invites", probability = 0.9 } }

        [[operations]]
        include-path-regex = "^/v1/bots/(add|hooks|tokens)$"
        parameters = { "body.bot" = { dictionary = "bots", probability = 0.9 }, "body.conversation" = { dictionary = "botgroups", probability = 0.9 } }

        [[operations]]
        include-name = "POST /v1/bots/delete"
        parameters = { "body.bot" = { dictionary = "doomed", probability = 0.9 } }

        [[operations]]
        include-name = "POST /v1/bots/revoke"
        parameters = { "body.id" = { dictionary = "credentials", probability = 0.9 } }

        [[operations]]
        include-path = "/v1/hooks/{hook}/{secret}"
        parameters = { "path.hook" = { dictionary = "hooks", probability = 0.9 }, "path.secret" = { dictionary = "secrets", probability = 0.9 } }

        [[operations]]
        include-path = "/v1/conversations/{conversation}/leave"
        parameters = { "path.conversation" = { dictionary = "leavable", probability = 0.7 } }

        [[operations]]
        include-path = "/v1/invitations/{conversation}/decline"
        parameters = { "path.conversation" = { dictionary = "invitations", probability = 0.7 } }
        """.write(to: config, atomically: true, encoding: .utf8)
        return config
    }

    /// The schemathesis command, installing it on first use.
    static func installed() async throws -> URL {
        let tool = venv.appendingPathComponent("bin/schemathesis")
        if FileManager.default.isExecutableFile(atPath: tool.path) { return tool }
        let python = venv.appendingPathComponent("bin/python")
        if !FileManager.default.isExecutableFile(atPath: python.path) {
            let (status, output) = try await run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-m", "venv", venv.path], in: packageRoot)
            try #require(status == 0, "python3 -m venv failed: \(output)")
        }
        let (status, output) = try await run(python, ["-m", "pip", "install", "--quiet", schemathesis], in: packageRoot)
        try #require(status == 0, "pip install \(schemathesis) failed: \(output.suffix(2_000))")
        return tool
    }

    static func run(_ executable: URL, _ arguments: [String], in folder: URL) async throws -> (Int32, String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = await pipe.readAll()
        return (await process.ended(), String(decoding: output, as: UTF8.self))
    }
}
