import Chat
import ConversationList
import Foundation
import Kernel
import MessageAIServer
import ServiceGraph
import TestSupport
import Testing

/// The security review's two High findings at a scale the suite affords, on a server with its
/// product's budgets: a rename loop does not hold up others' messages, and a flood of groups
/// reaches none of the strangers it names. (`messageai-bench server --mode renames|flood` runs
/// them at the review's scale.)
@Suite("Abuse", .timeLimit(.minutes(2)))
struct AbuseTests {
    @Test("a rename loop by someone with many contacts is cut short, and strangers' messages arrive on time meanwhile")
    func renameLoop() async throws {
        try await InProcessServer.live({
            $0.signUpBurst = 100_000
            $0.budget.renamesPerHour = 60
        }) { world in
            let graph = try world.remoteGraph()
            func user(_ name: String) async throws -> ServiceSet {
                let issued = try await graph.accounts.signUp(
                    email: "\(name)-\(UUID().uuidString.prefix(6))@example.com", displayName: name, password: "password-\(name)")
                return graph.services(for: graph.caller(token: issued.token))
            }
            let attacker = try await user("Spammer")
            let attackerID = try await attacker.profiles.myProfile().id
            var members: [UserID] = []
            for index in 0..<60 {
                let member = try await user("M\(index)")
                _ = try await member.conversations.startDirect(with: attackerID)
                members.append(try await member.profiles.myProfile().id)
            }
            for index in 0..<5 { _ = try await attacker.conversations.createGroup(title: "G\(index)", memberIDs: members) }
            let x = try await user("X"), y = try await user("Y")
            let xID = try await x.profiles.myProfile().id, yID = try await y.profiles.myProfile().id
            let direct = try await x.conversations.startDirect(with: yID)
            _ = try await y.conversations.startDirect(with: xID)
            var heard = try await y.events.liveMessages(in: direct.id).makeAsyncIterator()

            let renames = Task {
                var outcomes: [Bool] = []
                // Each refusal is answered after `ErrorMiddleware.refusalPause`: 40 take 7 s, well within the minute one more takes.
                for index in 0..<40 {
                    outcomes.append((try? await attacker.profiles.updateMyProfile(displayName: "Spammer \(index)", status: nil)) != nil)
                }
                return outcomes
            }
            var delays: [Duration] = []
            for index in 0..<5 {
                let sent = ContinuousClock.now
                let message = try await x.chat.send(id: .random(), text: "still there? \(index)", to: direct.id)
                while let next = await heard.next(), next.id != message.id {}
                delays.append(ContinuousClock.now - sent)
            }
            let outcomes = await renames.value
            #expect(outcomes.filter { $0 }.count == 5, "a twelfth of 60 at once, then one a minute")
            #expect(delays.allSatisfy { $0 < .seconds(2) }, "\(delays)")
        }
    }

    @Test("a stranger's flood of groups reaches nobody: one invitation each, and the budget stops the flood")
    func groupFlood() async throws {
        try await InProcessServer.live({
            $0.signUpBurst = 100_000
            $0.budget.conversationsPerHour = 120
        }) { world in
            let attacker = try await world.probe.signUp("Spammer")
            var victims: [(id: String, token: String)] = []
            for index in 0..<50 { victims.append(try await world.probe.signUp("V\(index)")) }
            var statuses: [Int] = []
            for _ in 0..<30 {
                statuses.append(
                    try await world.probe.send(
                        "POST", "/v1/conversations/groups", token: attacker.token,
                        json: ["title": "Free crypto!", "memberIDs": victims.map(\.id)]
                    ).status)
            }
            #expect(statuses.filter { $0 == 201 }.count == 20 && statuses.suffix(10).allSatisfy { $0 == 429 }, "\(statuses)")
            for victim in victims.prefix(3) {
                let list = try await world.probe.send("GET", "/v1/conversations", token: victim.token)
                #expect((list.json?["conversations"] as? [Any])?.isEmpty == true && list.body.count < 100, "\(list.body.count) bytes")
                let invitations = try await world.probe.send("GET", "/v1/invitations", token: victim.token)
                #expect((invitations.json?["invitations"] as? [Any])?.count == 1)
            }
        }
    }
}
