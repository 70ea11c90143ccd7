import Chat
import ChatAPI
import ChatRemote
import ChatServer
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Kernel
import RemoteClient
import Synchronization
import TestSupport
import Testing

/// What one event, one page and one change may weigh (security review 2026-11-27, H2, M1, M3):
/// no frame the server may send is over what the client reads, a client that fails on its first
/// frames backs off and says why, changes pay for the bytes they fan out, and reads for what they return.
@Suite("What events and pages weigh", .timeLimit(.minutes(3)))
struct EventWeightTests {
    /// 80 characters of `a` and 99 combining marks each: 15,920 bytes.
    static let heavyMarks = String(repeating: "a" + String(repeating: "\u{301}", count: 99), count: 80)
    /// 16,000 bytes.
    static let longText = String(repeating: "😀", count: 4_000)
    /// 20 different reactions.
    static let kinds = "😀😁😂🤣😃😄😅😆😉😊😋😎😍😘🥰😗😙😚🙂🤗".map(String.init)

    @Test(
        "the heaviest event the server can send (16,000 bytes of escaped text, the heaviest quote, 20 reactions of 10,000 people seen by one of them with 10 of their own, every mention, the longest ids) is well within the client's frame limit"
    )
    func heaviestEvent() throws {
        let id = { (tag: String) in String((tag + String(repeating: "x", count: 64)).prefix(64)) }
        // Each `"` is escaped (2 bytes); 4,000 characters, 16,000 bytes.
        let text = String(repeating: "\"\u{301}\u{301}", count: 2_000) + String(repeating: "\"\u{301}", count: 2_000)
        #expect(try Validation.messageText(text) == text)
        // The quote: escaped quotes with a 3-byte mark, 4 bytes a character.
        let answered = String(repeating: "\"\u{20D0}", count: 4_000)
        let people = (0..<10_000).map { UserID(id("u\($0)-")) }
        let emoji = Self.kinds.map { String(repeating: "😀", count: 7) + $0 }  // 32 bytes each
        // The reader reacted with the first 10 (`ChatRules.maxReactionsPerPerson`), the others with one each.
        let reader = people[0]
        let reactions = Dictionary(
            uniqueKeysWithValues: emoji.enumerated().map { index, kind in
                (kind, (index < ChatRules.maxReactionsPerPerson ? [reader] : []) + people[(index * 500 + 1)..<(index * 500 + 500)])
            })
        let message = Message(
            id: MessageID(id("m")), conversationID: ConversationID(id("c")), senderID: UserID(id("s")), text: text,
            sentAt: Date(timeIntervalSince1970: 4_000_000_000), cursor: EventCursor(epoch: String(repeating: "e", count: 16), position: .max),
            version: ChatRules.maxEdits, editedAt: Date(timeIntervalSince1970: 4_000_000_000), reactions: reactions,
            replyTo: Message.Reply(id: MessageID(id("r")), text: answered, deleted: false),
            mentions: Array(people.prefix(Validation.maxMentions)))
        let cursor = EventCursor(epoch: String(repeating: "e", count: 16), position: .max)
        let seen = message.seen(by: reader, apart: [])
        #expect(seen.reactions.count == ChatRules.maxReactionsPerPerson && seen.reactions.values.allSatisfy { $0 == [reader] })
        let frame = EventFrames().text(of: UserEvent.messageChanged(.edited, message, cursor: cursor), seenBy: reader, apart: [])
        print("heaviest event frame: \(frame.count) bytes; the client reads frames of up to \(EventSocketProtocol.maxFrameBytes)")
        #expect(frame.count * 2 <= EventSocketProtocol.maxFrameBytes, "\(frame.count) bytes")
        // What pages and budgets count it as is within its escapes (one a character at most) of it.
        #expect(abs(seen.wireBytes - frame.count) < Validation.maxMessageLength + 1_024, "\(seen.wireBytes) counted, \(frame.count) sent")
        // A reaction's event carries the reactions alone: neither the text nor the quote weighs on
        // it, nor the 10,000 who reacted (ADR 30): 20 emoji of 32 bytes counted, 10 of them named with the reader's 64-byte id.
        let reacted = EventFrames().text(of: UserEvent.changed(.reacted, message, cursor: cursor), seenBy: reader, apart: [])
        #expect(reacted.count < 2_500 && abs(MessageReactions(of: seen).wireBytes - reacted.count) < 1_024, "\(reacted.count) bytes")
        // The reader still learns how many reacted with each, and which are theirs.
        let read = try #require(try WireFormat.decoder().decode(UserEvent.self, from: frame).messageNow)
        #expect(read.reactionCounts == reactions.mapValues(\.count) && read.reactions == seen.reactions)
        #expect(read.replyTo.map { $0.quote.utf8.count <= Message.Reply.quoteBytes && !$0.quote.isEmpty } == true)
    }

    /// A group of `owner` and `members`, all of whom accepted; its id.
    static func group(_ world: InProcessServer, of owner: (id: String, token: String), _ members: [(id: String, token: String)]) async throws
        -> String
    {
        let group = try #require(
            try await world.probe.send(
                "POST", "/v1/conversations/groups", token: owner.token,
                json: ["title": "Team", "memberIDs": members.map(\.id)]
            ).json?["id"] as? String)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for member in members {
                tasks.addTask {
                    let accepted = try await world.probe.send("POST", "/v1/invitations/\(group)/accept", token: member.token)
                    #expect(accepted.status == 200)
                }
            }
            try await tasks.waitForAll()
        }
        return group
    }

    @Test(
        "the review's trap, scaled down: a long reply quoting a text of combining marks, with 900 reactions; a live client keeps receiving later messages",
        heavyTests)
    func trapScaledDown() async throws {
        try await InProcessServer.live({ $0.signUpBurst = 1_000 }) { world in
            let attacker = try await world.probe.signUp("Bomber"), victim = try await world.probe.signUp("Victim")
            let direct = try await world.probe.startDirect(attacker.token, with: victim.id)
            #expect(try await world.probe.send("POST", "/v1/invitations/\(direct)/accept", token: victim.token).status == 200)
            var pups: [(id: String, token: String)] = []
            for index in 0..<90 { pups.append(try await world.probe.signUp("Pup\(index)")) }
            let group = try await Self.group(world, of: attacker, [victim] + pups)

            let connection = try RemoteConnection(server: try ServerAddress(world.url), timeout: .seconds(10), trustedCertificates: nil)
            let events = try await RemoteEventStreamService(connection: connection, caller: Caller(token: victim.token) { UserID(victim.id) })
                .liveEvents()
            let path = "/v1/conversations/\(group)/messages/"
            #expect(try await world.probe.send("PUT", path + "quoted1", token: attacker.token, json: ["text": Self.heavyMarks]).status == 200)
            #expect(
                try await world.probe.send("PUT", path + "bomb1", token: attacker.token, json: ["text": Self.longText, "replyTo": "quoted1"]).status
                    == 200)
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                for (index, pup) in pups.enumerated() {
                    tasks.addTask {
                        for kind in 0..<10 {
                            let emoji = Self.kinds[(index + kind) % Self.kinds.count]
                            let reacted = try await world.probe.send("POST", path + "bomb1/reactions", token: pup.token, json: ["emoji": emoji])
                            #expect(reacted.status == 200)
                        }
                    }
                }
                try await tasks.waitForAll()
            }
            #expect(
                try await world.probe.send(
                    "PUT", "/v1/conversations/\(direct)/messages/after1", token: attacker.token,
                    json: ["text": "after the bomb"]
                ).status == 200)
            // The newest event of the bomb, as the server sends it to every member.
            let log = try await world.probe.send("GET", "/v1/events/log?after=\(try Self.start(world, victim.token))&limit=500", token: victim.token)
            let heaviest = try #require(
                try WireFormat.decoder().decode(EventList.self, from: log.body).events.map { EventFrames.text(of: $0).count }.max())
            print("the bomb's heaviest event: \(heaviest) bytes")
            #expect(heaviest <= EventSocketProtocol.maxFrameBytes)

            let arrived = Mutex(false)
            let reader = Task {
                for await event in events where event.message?.text == "after the bomb" {
                    arrived.withLock { $0 = true }
                    return
                }
            }
            let deadline = ContinuousClock.now + .seconds(20)
            while !arrived.withLock({ $0 }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
            reader.cancel()
            #expect(arrived.withLock { $0 }, "the victim's live events stopped at the bomb")
        }
    }

    /// The cursor before every event of the store `token` reads.
    static func start(_ world: InProcessServer, _ token: String) async throws -> String {
        let newest = try #require(try await world.probe.send("GET", "/v1/events/newest", token: token).json?["cursor"] as? String)
        return newest.split(separator: ".")[0] + ".0"
    }

    @Test("a socket that fails on its first frames waits longer each time and says why; one that delivers starts over")
    func backoff() async throws {
        let connections = Mutex(0)
        let tooLarge =
            #"{"v":1,"type":"chat.message","cursor":"e1.1","event":{"pad":""# + String(repeating: "x", count: EventSocketProtocol.maxFrameBytes)
            + #""}}"#
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.ws(RouterPath(EventSocketProtocol.path)) { inbound, outbound, _ in
            connections.withLock { $0 += 1 }
            try await outbound.write(.text(#"{"v":1,"type":"socket.ready","cursor":"e1.0","event":{}}"#))
            try await outbound.write(.text(tooLarge))
            for try await _ in inbound.messages(maxSize: EventSocketProtocol.maxFrameBytes) {}
        }
        let app = Application(
            router: Router(), server: .http1WebSocketUpgrade(webSocketRouter: router),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let connection = try RemoteConnection(
                server: try ServerAddress("http://127.0.0.1:\(port)"), timeout: .seconds(10), trustedCertificates: nil)
            let caller = Caller(token: "stand-in") { UserID("u-ada") }
            let troubles = try await RemoteEventStreamService(connection: connection, caller: caller).liveTrouble()
            let said = Task { () -> String? in
                for await trouble in troubles { return trouble }
                return nil
            }
            try await Task.sleep(for: .seconds(5))
            // Waits of up to 0.5, 1, 2, 4 and 8 s: a handful; without the backoff growing, one every 0.25 s on average (20).
            let count = connections.withLock { $0 }
            #expect((2...8).contains(count), "\(count) connections in 5 s")
            let reason = await said.value
            #expect(reason?.contains("\(EventSocketProtocol.maxFrameBytes / 1_024) KiB") == true, "\(String(describing: reason))")
        }
    }

    @Test(
        "toggling a reaction on a long reply in a group sends and pays for the reactions alone, not the 16 KB message: over a thousand toggles where 30 fitted, then 429"
    )
    func reactionsPayForTheirFanOut() async throws {
        try await InProcessServer.live({
            $0.budget.fanOutMegabytesPerMinute = 1
            $0.budget.messagesPerMinute = 1_000_000
        }) { world in
            let ada = try await world.probe.signUp("Ada"), bob = try await world.probe.signUp("Bob"), eve = try await world.probe.signUp("Eve")
            let group = try await Self.group(world, of: ada, [bob, eve])
            let path = "/v1/conversations/\(group)/messages/"
            #expect(try await world.probe.send("PUT", path + "q1", token: ada.token, json: ["text": Self.heavyMarks]).status == 200)
            #expect(try await world.probe.send("PUT", path + "big1", token: ada.token, json: ["text": Self.longText, "replyTo": "q1"]).status == 200)
            var toggles = 0
            var refusal: HTTPProbe.Answer?
            let started = ContinuousClock.now
            while refusal == nil, toggles < 3_000 {
                let answer = try await world.probe.send(
                    "POST", path + "big1/reactions", token: ada.token, json: ["emoji": "👍", "remove": toggles % 2 == 1])
                if answer.status == 200 { toggles += 1 } else { refusal = answer }
            }
            // 1 MiB at once, less the two sends (about 66 KB), and what came back meanwhile: 300 to 390 bytes
            // to each of 2 a toggle. When a toggle's event carried the message (16,700 bytes), 30 fitted.
            #expect(refusal?.status == 429 && refusal?.errorKind == "rateLimited", "\(toggles) toggles, then \(String(describing: refusal?.status))")
            let budget = Double(1 << 20) * (1 + (ContinuousClock.now - started) / .seconds(60))
            let unreacted = MessageReactions(conversationID: ConversationID(group), messageID: MessageID("big1"), reactions: [:], reactionCounts: [:])
            #expect(toggles >= 1_000 && Double(toggles * 2 * unreacted.wireBytes) <= budget, "\(toggles) toggles")
            let log = try await world.probe.send("GET", "/v1/events/log?after=\(try Self.start(world, bob.token))&limit=500", token: bob.token)
            let reacted = try WireFormat.decoder().decode(EventList.self, from: log.body).events.filter { $0.type == "chat.reacted" }
            let heaviest = reacted.map { EventFrames.text(of: $0).count }.max() ?? 0
            print("\(toggles) toggles before 429; each toggle's event: \(heaviest) bytes")
            #expect(!reacted.isEmpty && heaviest <= 512, "\(heaviest) bytes")
        }
    }

    @Test("a page of fat messages is bounded in bytes; fat pages in a row spend the look-up budget, 429 past it")
    func fatPages() async throws {
        try await InProcessServer.live({ $0.budget.lookupsPerMinute = 60 }) { world in
            let ada = try await world.probe.signUp("Ada"), bob = try await world.probe.signUp("Bob")
            let direct = try await world.probe.startDirect(ada.token, with: bob.id)
            #expect(try await world.probe.send("POST", "/v1/invitations/\(direct)/accept", token: bob.token).status == 200)
            for index in 0..<100 {
                #expect(
                    try await world.probe.send(
                        "PUT", "/v1/conversations/\(direct)/messages/f\(index)", token: ada.token,
                        json: ["text": Self.longText]
                    ).status == 200)
            }
            let after = try await Self.start(world, ada.token)
            let paths = [
                "/v1/events/log?after=\(after)&limit=500", "/v1/messages?after=\(after)&limit=500",
                "/v1/conversations/\(direct)/messages?limit=500",
            ]
            for path in paths {
                let page = try await world.probe.send("GET", path, token: ada.token)
                print("\(path.prefix(20)): \(page.body.count) bytes")
                #expect(page.status == 200 && page.body.count <= (1 << 20) + 20_000 && page.body.count > 500_000, "\(path): \(page.body.count) bytes")
            }
            var statuses: [Int] = []
            for _ in 0..<12 { statuses.append(try await world.probe.send("GET", paths[0], token: ada.token).status) }
            #expect(statuses.contains(429), "\(statuses)")
            #expect(try await world.probe.send("GET", paths[0], token: bob.token).status == 200, "another person's budget was spent")
        }
    }
}
