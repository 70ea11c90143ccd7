import Chat
import Foundation
import Kernel
import Synchronization
import TestSupport

/// The second security review's attacks (issue 37) under load, with the product's budgets: one
/// person's requests whose cost grows with what they control, and how late a bystander's
/// messages are meanwhile (`--mode search`, `trap`, `pages`, `groups`). Every request is one a
/// server from before the fixes also answers, so the same benchmark copied beside an older
/// server measures it.
extension ServerBench {
    /// The modes of this file: the attacks, and `calm`, the bystanders alone (the figure each is read against).
    static let costAttacks = ["search", "trap", "pages", "groups", "calm"]

    /// The attack `mode` names, on `world`.
    func costAttack(_ world: some LoadTarget) async throws -> Result {
        switch mode {
        case "search": try await searchStall(world)
        case "trap": try await reactionTrap(world, members: clients ?? 190)
        case "pages": try await fatPages(world, members: clients ?? 190, pages: 64)
        case "groups": try await bigGroups(world, members: clients ?? 1_000, attackers: 10)
        default: try await calm(world)
        }
    }

    /// No attack: two people exchange a message every quarter second for `seconds`.
    func calm(_ world: some LoadTarget) async throws -> Result {
        let pair = try await world.pairs(1)[0]
        let heard = try await pair.receiver.events.liveMessages(in: pair.conversation)
        let deadline = ContinuousClock.now + .seconds(seconds)
        let bystanders = try await bystanderLatency(from: pair.sender, heard: heard, in: pair.conversation, every: .milliseconds(250)) {
            ContinuousClock.now < deadline
        }
        return Result(key: bystanders.worst, line: "no attack for \(seconds) s; messages between two people: \(bystanders.line)")
    }

    /// H1: one person's 101 messages of 4,000 × 東 to a group of their own, then four searches of
    /// 東 at a time, in a loop for `seconds` (each refused one followed by `refusedWait` ms of
    /// quiet), while two strangers to them exchange a message every quarter second: how late
    /// those messages are, and how many searches were answered.
    func searchStall(_ world: some LoadTarget) async throws -> Result {
        let attacker = try await world.users(1)[0]
        let notes = try await attacker.conversations.createGroup(title: "Notes", memberIDs: []).id
        var (stored, refused) = (0, 0)
        while stored < 101 {
            do {
                _ = try await attacker.chat.send(id: .random(), text: String(repeating: "東", count: 4_000), to: notes)
                stored += 1
            } catch {
                // The message budget: 30 at once, then 5 a second.
                refused += 1
                guard refused < 120 else { throw error }
                try await Task.sleep(for: .seconds(1))
            }
        }
        let pair = try await world.pairs(1)[0]
        let heard = try await pair.receiver.events.liveMessages(in: pair.conversation)
        let deadline = ContinuousClock.now + .seconds(seconds)
        let url = world.url + "/v1/search?q=%E6%9D%B1&limit=100"
        let searching = Task {
            try await ServerFixture.concurrently(4, width: 4) { _ in
                var statuses: [Int] = []
                while ContinuousClock.now < deadline {
                    let status = try await Self.get(url, token: attacker.token).status
                    statuses.append(status)
                    if status != 200, refusedWait > 0 { try await Task.sleep(for: .milliseconds(refusedWait)) }
                }
                return statuses
            }.flatMap { $0 }
        }
        let bystanders = try await bystanderLatency(from: pair.sender, heard: heard, in: pair.conversation, every: .milliseconds(250)) {
            ContinuousClock.now < deadline
        }
        let statuses = try await searching.value
        let answered = statuses.count { $0 == 200 }
        return Result(
            key: bystanders.worst,
            line: "4 searches at a time of 101 messages of 4,000 × 東 for \(seconds) s: \(answered) answered, "
                + "\(statuses.count - answered) refused; messages between strangers: \(bystanders.line)")
    }

    /// H2 and M1: a group of the attacker, a victim, a stranger and `members` accounts of the
    /// attacker's, who each listen on a bare socket; `fatMessage` for `seconds`, while the stranger
    /// writes in the group every quarter second and the victim reads with the remote services a
    /// REPL uses: how late her messages are (never, once a frame traps her client), and what the
    /// listeners were sent.
    func reactionTrap(_ world: some LoadTarget, members: Int) async throws -> Result {
        let (group, attacker, stranger, victim, reactors) = try await stormGroup(world, members: members, title: "Team")
        let listeners = try await ServerFixture.concurrently(reactors.count, width: 16) { index in
            try await LoadSocket.open(world.url, token: reactors[index].token)
        }
        defer { listeners.forEach { $0.close() } }
        let heard = try await victim.events.liveMessages(in: group)
        let deadline = ContinuousClock.now + .seconds(seconds)
        let reacting = Task { try await fatMessage(in: group, by: attacker, reactors: reactors, until: deadline) }
        let bystanders = try await bystanderLatency(from: stranger, heard: heard, in: group, every: .milliseconds(250)) {
            ContinuousClock.now < deadline
        }
        let (made, refused) = try await reacting.value
        let traffic = listeners.map(\.traffic)
        let bytes = traffic.map(\.bytes).reduce(0, +)
        return Result(
            key: bystanders.worst,
            line: "\(made) reactions to a reply of 16,000 bytes (\(refused) refused) in \(seconds) s; "
                + "\(listeners.count) listeners were sent \(Stats.format(Double(bytes) / 1e6, 1)) MB, the largest frame "
                + "\(traffic.map(\.largest).max() ?? 0) bytes, \(traffic.count(where: \.closed)) sockets closed; the victim's messages: \(bystanders.line)"
        )
    }

    /// M3: `fatMessage` with as many reactions as the server takes, then `pages` pages of the
    /// attacker's event log (500 events each, from before the message) read at once, while two
    /// strangers exchange a message every quarter second for at least `seconds`: how late those
    /// are, the bytes read, and the server's memory at its peak.
    func fatPages(_ world: some LoadTarget, members: Int, pages: Int) async throws -> Result {
        let (group, attacker, _, _, reactors) = try await stormGroup(world, members: members, title: "Team")
        guard let before = try await attacker.events.newestCursor() else { throw AppError(.internal, "the attacker's log is empty") }
        let (made, _) = try await fatMessage(in: group, by: attacker, reactors: reactors, until: .now + .seconds(120))
        let pair = try await world.pairs(1)[0]
        let heard = try await pair.receiver.events.liveMessages(in: pair.conversation)
        let url = world.url + "/v1/events/log?after=\(before)&limit=500"
        let pids = try world.serverPIDs()
        let resident = { pids.map(Child.residentBytes).reduce(0, +) }
        let (start, atStart) = (ContinuousClock.now, resident())
        let peak = Mutex(atStart)
        let finished = Mutex(false)
        let reading = Task {
            defer { finished.withLock { $0 = true } }
            return try await ServerFixture.concurrently(pages, width: pages) { _ in try await Self.get(url, token: attacker.token) }
        }
        let bystanders = try await bystanderLatency(from: pair.sender, heard: heard, in: pair.conversation, every: .milliseconds(250)) {
            peak.withLock { $0 = max($0, resident()) }
            return !finished.withLock { $0 } || ContinuousClock.now < start + .seconds(seconds)
        }
        let read = try await reading.value
        let answered = read.filter { $0.status == 200 }
        return Result(
            key: bystanders.worst,
            line: "\(pages) pages of the log at once, after \(made) reactions to a reply of 16,000 bytes: "
                + "\(answered.count) answered (\(Stats.format(Double(answered.map(\.bytes).reduce(0, +)) / 1e6, 1)) MB), \(read.count - answered.count) refused, "
                + "the slowest in \(Stats.format(read.map(\.seconds).max() ?? 0, 1)) s; server memory \(atStart >> 20) MiB, at its peak "
                + "\(peak.withLock { $0 } >> 20) MiB; messages between strangers: \(bystanders.line)")
    }

    /// M5: `attackers` accounts each create 10 groups of the same `members` strangers, all at
    /// once, while two others exchange a message every quarter second for at least `seconds`:
    /// how late those are.
    func bigGroups(_ world: some LoadTarget, members: Int, attackers: Int) async throws -> Result {
        let invitees = try await world.users(members).map(\.id)
        let makers = try await world.users(attackers)
        let pair = try await world.pairs(1)[0]
        let heard = try await pair.receiver.events.liveMessages(in: pair.conversation)
        let start = ContinuousClock.now
        let finished = Mutex(false)
        let making = Task {
            defer { finished.withLock { $0 = true } }
            return try await ServerFixture.concurrently(attackers, width: attackers) { index in
                var (made, refused) = (0, 0)
                for round in 0..<10 {
                    do {
                        _ = try await makers[index].conversations.createGroup(title: "Big \(round)", memberIDs: invitees)
                        made += 1
                    } catch {
                        refused += 1
                    }
                }
                return (made, refused)
            }
        }
        let bystanders = try await bystanderLatency(from: pair.sender, heard: heard, in: pair.conversation, every: .milliseconds(250)) {
            !finished.withLock { $0 } || ContinuousClock.now < start + .seconds(seconds)
        }
        let counts = try await making.value
        return Result(
            key: bystanders.worst,
            line: "\(attackers) accounts × 10 groups of \(members) invitees at once: "
                + "\(counts.map(\.0).reduce(0, +)) made, \(counts.map(\.1).reduce(0, +)) refused; messages between others: \(bystanders.line)")
    }

    /// The review's heaviest message, in `group`: an 80-character reply quote of combining marks
    /// (15,920 bytes), a reply of 4,000 × 😀 (16,000 bytes) to it, then 10 reactions of different
    /// emoji from each of `reactors`, 8 at a time, as many as the server takes until `deadline`.
    private func fatMessage(
        in group: ConversationID, by attacker: LoadUsers.User, reactors: [LoadUsers.User],
        until deadline: ContinuousClock.Instant
    ) async throws -> (made: Int, refused: Int) {
        let quote = try await attacker.chat.send(
            id: .random(), text: String(repeating: "a" + String(repeating: "\u{301}", count: 99), count: 80), to: group)
        let reply = try await attacker.chat.send(id: .random(), text: String(repeating: "😀", count: 4_000), to: group, replyTo: quote.id)
        let emoji = "😀😁😂🤣😃😄😅😆😉😊😋😎😍😘🥰😗😙😚🙂🤗".map(String.init)
        let counts = try await ServerFixture.concurrently(reactors.count, width: 8) { index in
            var (made, refused) = (0, 0)
            for step in 0..<10 where ContinuousClock.now < deadline {
                do {
                    _ = try await reactors[index].chat.react(to: reply.id, in: group, with: emoji[(index + step) % emoji.count], adding: true)
                    made += 1
                } catch {
                    refused += 1
                }
            }
            return (made, refused)
        }
        return (counts.map(\.0).reduce(0, +), counts.map(\.1).reduce(0, +))
    }
}
