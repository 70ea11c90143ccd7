import Foundation
import Kernel
import MessageAIServer
import ServerSupport
import TestSupport
import Testing

/// Per-person budgets: one person sending, starting conversations, renaming or looking people up
/// faster than the server allows is refused (429 with `Retry-After`, exit 75 in the client),
/// and nobody else is.
@Suite("Per-person budgets", .timeLimit(.minutes(2)))
struct BudgetTests {
    @Test("messages past a person's budget are refused with Retry-After; another person sends on; the CLI says so with exit 75")
    func messages() async throws {
        // 30 a minute: 3 at once, then one every 2 s.
        try await InProcessServer.live({ $0.budget.messagesPerMinute = 30 }) { world in
            let ada = try await world.probe.signUp("Ada"), bob = try await world.probe.signUp("Bob")
            let direct = try await world.probe.startDirect(ada.token, with: bob.id)
            #expect(try await world.probe.send("POST", "/v1/invitations/\(direct)/accept", token: bob.token).status == 200)
            let started = ContinuousClock.now
            var stored = 0
            var refusal: HTTPProbe.Answer?
            while refusal == nil, stored < 20 {
                let answer = try await world.probe.send(
                    "PUT", "/v1/conversations/\(direct)/messages/m\(stored)", token: ada.token, json: ["text": "hi"])
                if answer.status == 200 { stored += 1 } else { refusal = answer }
            }
            let earned = Int(((ContinuousClock.now - started) / .seconds(2)).rounded(.up))
            #expect((3...3 + earned).contains(stored), "\(stored) stored in \(ContinuousClock.now - started)")
            #expect(refusal?.status == 429 && refusal?.errorKind == "rateLimited")
            #expect(refusal?.headers["retry-after"].flatMap(Int.init).map { (1...2).contains($0) } == true, "\(String(describing: refusal?.headers))")
            let bobs = try await world.probe.send("PUT", "/v1/conversations/\(direct)/messages/b1", token: bob.token, json: ["text": "hello"])
            #expect(bobs.status == 200, "another person's budget was spent")

            let machine = world.machine("ada")
            _ = try await machine.signUp("Carol")
            #expect(try await machine.run(["chats", "new", bob.id]).status == 0)
            var refused: Machine.Run?
            for index in 0..<10 {
                let sent = try await machine.run(["send", "Bob", "line \(index)"])
                if sent.status != 0 {
                    refused = sent
                    break
                }
            }
            #expect(
                refused?.status == 75 && refused?.stderr.contains("sending messages faster than this server allows; try again in") == true,
                "\(String(describing: refused))")
        }
    }

    @Test("edits and deletions spend the messages budget: an edit loop is refused with Retry-After, and another person sends on")
    func changes() async throws {
        try await InProcessServer.live({ $0.budget.messagesPerMinute = 30 }) { world in
            let ada = try await world.probe.signUp("Ada"), bob = try await world.probe.signUp("Bob")
            let direct = try await world.probe.startDirect(ada.token, with: bob.id)
            #expect(try await world.probe.send("POST", "/v1/invitations/\(direct)/accept", token: bob.token).status == 200)
            let path = "/v1/conversations/\(direct)/messages/"
            #expect(try await world.probe.send("PUT", path + "m0", token: ada.token, json: ["text": "hi"]).status == 200)
            var refusal: HTTPProbe.Answer?
            var edits = 0
            while refusal == nil, edits < 10 {
                let answer = try await world.probe.send("PATCH", path + "m0", token: ada.token, json: ["text": "hi \(edits)"])
                if answer.status == 200 { edits += 1 } else { refusal = answer }
            }
            #expect(refusal?.status == 429 && refusal?.errorKind == "rateLimited", "\(edits) edits, then \(String(describing: refusal?.status))")
            #expect(refusal?.headers["retry-after"] != nil)
            #expect(try await world.probe.send("DELETE", path + "m0", token: ada.token).status == 429, "a deletion is paid for too")
            #expect(
                try await world.probe.send("PUT", path + "b1", token: bob.token, json: ["text": "hello"]).status == 200,
                "another person's budget was spent")
        }
    }

    @Test("text times recipients is budgeted: long messages to a group run out before short ones would")
    func fanOut() async throws {
        try await InProcessServer.live({ $0.budget.fanOutMegabytesPerMinute = 1 }) { world in
            let ada = try await world.probe.signUp("Ada"), bob = try await world.probe.signUp("Bob"), eve = try await world.probe.signUp("Eve")
            let group = try #require(
                try await world.probe.send(
                    "POST", "/v1/conversations/groups", token: ada.token,
                    json: ["title": "G", "memberIDs": [bob.id, eve.id]]
                ).json?["id"] as? String)
            for invitee in [bob, eve] {
                #expect(try await world.probe.send("POST", "/v1/invitations/\(group)/accept", token: invitee.token).status == 200)
            }
            let long = String(repeating: "😀", count: 4_000)  // 16,000 bytes
            let started = ContinuousClock.now
            var stored = 0
            while stored < 100 {
                let answer = try await world.probe.send(
                    "PUT", "/v1/conversations/\(group)/messages/l\(stored)", token: ada.token, json: ["text": long])
                guard answer.status == 200 else {
                    #expect(answer.status == 429 && answer.errorKind == "rateLimited")
                    break
                }
                stored += 1
            }
            // 1 MiB at once, 32,000 bytes (16,000 to each of 2) a message; 1 MiB a minute more while
            // they are sent, on a machine that may be slow.
            let atOnce = (1 << 20) / 32_000
            let earned = Int((((ContinuousClock.now - started) / .seconds(60)) * Double(1 << 20) / 32_000).rounded(.up))
            #expect((atOnce...atOnce + earned).contains(stored), "\(stored) stored in \(ContinuousClock.now - started)")
        }
    }

    @Test("conversations, renames and look-ups each have their budget; a status change is not a rename")
    func otherActions() async throws {
        try await InProcessServer.live({
            $0.budget.conversationsPerHour = 12
            $0.budget.renamesPerHour = 24
            $0.budget.lookupsPerMinute = 8
        }) { world in
            let ada = try await world.probe.signUp("Ada")
            var people: [String] = []
            for index in 0..<3 { people.append(try await world.probe.signUp("P\(index)").id) }
            var groups: [Int] = []
            for index in 0..<3 {
                groups.append(
                    try await world.probe.send(
                        "POST", "/v1/conversations/groups", token: ada.token, json: ["title": "G\(index)", "memberIDs": people]
                    ).status)
            }
            #expect(groups == [201, 201, 429], "a sixth of 12 at once")
            var renames: [Int] = []
            for index in 0..<3 {
                renames.append(try await world.probe.send("PATCH", "/v1/profiles/me", token: ada.token, json: ["displayName": "Ada \(index)"]).status)
            }
            #expect(renames == [200, 200, 429], "a twelfth of 24 at once")
            #expect(try await world.probe.send("PATCH", "/v1/profiles/me", token: ada.token, json: ["status": "still here"]).status == 200)
            var lookups: [Int] = []
            for _ in 0..<5 { lookups.append(try await world.probe.send("GET", "/v1/profiles/search?q=p", token: ada.token).status) }
            #expect(lookups == [200, 200, 200, 200, 429], "half of 8 at once")
        }
    }

    @Test(
        "blocks, unblocks and receipt-privacy changes spend the look-ups budget, leaving a conversation the conversations budget: past them 429 with Retry-After"
    )
    func settingsAndLeaving() async throws {
        try await InProcessServer.live({
            $0.budget.lookupsPerMinute = 8
            $0.budget.conversationsPerHour = 12
        }) { world in
            let ada = try await world.probe.signUp("Ada"), bob = try await world.probe.signUp("Bob"), cy = try await world.probe.signUp("Cy")
            // Half of 8 at once, whichever of them spends it.
            var settings: [Int] = []
            for index in 0..<5 {
                let answer =
                    switch index % 3 {
                    case 0: try await world.probe.send("PUT", "/v1/blocks/\(cy.id)", token: ada.token)
                    case 1: try await world.probe.send("DELETE", "/v1/blocks/\(cy.id)", token: ada.token)
                    default: try await world.probe.send("PUT", "/v1/receipts/privacy", token: ada.token, json: ["private": true])
                    }
                settings.append(answer.status)
                if index == 4 { #expect(answer.headers["retry-after"].flatMap(Int.init).map { $0 >= 1 } == true, "\(answer.headers)") }
            }
            #expect(settings == [204, 204, 204, 204, 429], "half of 8 at once")
            // Leave and re-join a one-to-one: each leave spends one of the 2 conversations at once (a sixth of 12).
            let direct = try await world.probe.startDirect(bob.token, with: ada.id)
            _ = try await world.probe.startDirect(ada.token, with: bob.id)
            var leaves: [Int] = []
            for _ in 0..<3 {
                leaves.append(try await world.probe.send("POST", "/v1/conversations/\(direct)/leave", token: ada.token).status)
                _ = try await world.probe.send("POST", "/v1/conversations/direct", token: ada.token, json: ["userID": bob.id])
            }
            #expect(leaves == [204, 204, 429], "a sixth of 12 at once")
        }
    }

    @Test(
        "message searches and lists of mentions spend the look-ups budget: past it one is refused with Retry-After, and another person searches on; a bad cursor is a 400",
        arguments: ["/v1/search?q=hello", "/v1/mentions?since=0"])
    func searches(_ path: String) async throws {
        try await InProcessServer.live({ $0.budget.lookupsPerMinute = 8 }) { world in
            let ada = try await world.probe.signUp("Ada"), bob = try await world.probe.signUp("Bob")
            var statuses: [Int] = []
            for _ in 0..<4 { statuses.append(try await world.probe.send("GET", path, token: ada.token).status) }
            let asked = ContinuousClock.now
            statuses.append(try await world.probe.send("GET", path, token: ada.token).status)
            #expect(statuses == [200, 200, 200, 200, 429], "half of 8 at once")
            #expect(asked.duration(to: .now) >= ErrorMiddleware.refusalPause, "a refusal is answered after a pause: a flood of them is slowed")
            #expect(try await world.probe.send("GET", path, token: bob.token).status == 200, "another person's budget was spent")
            for bad in ["abc", "-1", String(repeating: "9", count: 30)] {
                #expect(try await world.probe.send("GET", "/v1/mentions?since=\(bad)", token: bob.token).status == 400, "since=\(bad.prefix(10))")
            }
        }
    }
}
