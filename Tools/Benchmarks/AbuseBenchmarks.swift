import AsyncHTTPClient
import Chat
import Foundation
import Kernel
import ServiceGraph
import Synchronization
import TestSupport

/// The security review's two High findings, reproduced against a server with its product's
/// budgets (`--mode renames`, `--mode flood`). Every request is one that a server without
/// consent or budgets also answers, so the same benchmark measures a server from before them
/// copied beside it.
extension ServerBench {
    /// A person who shares groups with `members` people renames themselves in a loop for
    /// `seconds` while two strangers to them exchange a message every half second: how late
    /// those messages reach their reader.
    func renameLoop(_ world: some LoadTarget, members: Int, groups: Int) async throws -> Result {
        let attacker = try await world.users(1)[0]
        let people = try await world.users(members)
        // Each member starts a one-to-one with the attacker first: a contact, who sees each new
        // name (the groups, of strangers to them, are invitations).
        _ = try await ServerFixture.concurrently(members, width: 16) { index in try await people[index].conversations.startDirect(with: attacker.id) }
        for index in 0..<groups {
            _ = try await attacker.conversations.createGroup(title: "Group \(index)", memberIDs: people.map(\.id))
        }
        let pair = try await world.pairs(1)[0]
        let heard = try await pair.receiver.events.liveMessages(in: pair.conversation)
        let deadline = ContinuousClock.now + .seconds(seconds)
        let renaming = Task {
            var (made, refused) = (0, 0)
            while ContinuousClock.now < deadline {
                do {
                    _ = try await attacker.services.profiles.updateMyProfile(displayName: "Spammer \(made % 2)", status: nil)
                    made += 1
                } catch {
                    refused += 1
                }
            }
            return (made, refused)
        }
        let bystanders = try await bystanderLatency(from: pair.sender, heard: heard, in: pair.conversation) { ContinuousClock.now < deadline }
        let (made, refused) = await renaming.value
        return Result(
            key: bystanders.worst,
            line: "\(groups) groups of \(members + 1): \(made) renames in \(seconds) s (\(refused) refused); "
                + "messages between strangers: \(bystanders.line)")
    }

    /// A member of a group of `members` edits, reacts to and deletes messages in a loop for
    /// `seconds` (as fast as the server lets them), while two other members exchange a message
    /// every half second in the same group: how late those messages reach their reader.
    func changeStorm(_ world: some LoadTarget, members: Int) async throws -> Result {
        let (group, attacker, sender, receiver, _) = try await stormGroup(world, members: members, title: "Storm")
        let target = try await attacker.chat.send(id: .random(), text: "edit me", to: group)
        let heard = try await receiver.events.liveMessages(in: group)
        let deadline = ContinuousClock.now + .seconds(seconds)
        let storming = Task {
            var (made, refused, round) = (0, 0, 0)
            while ContinuousClock.now < deadline {
                round += 1
                do {
                    switch round % 3 {
                    case 0: _ = try await attacker.chat.edit(target.id, in: group, text: "edit \(round)")
                    case 1: _ = try await attacker.chat.react(to: target.id, in: group, with: "🔥", adding: true)
                    default: _ = try await attacker.chat.react(to: target.id, in: group, with: "🔥", adding: false)
                    }
                    made += 1
                } catch {
                    refused += 1
                }
            }
            return (made, refused)
        }
        let bystanders = try await bystanderLatency(from: sender, heard: heard, in: group) { ContinuousClock.now < deadline }
        let (made, refused) = await storming.value
        return Result(
            key: bystanders.worst,
            line: "a group of \(members + 3): \(made) edits and reactions in \(seconds) s (\(refused) refused); "
                + "other members' messages: \(bystanders.line)")
    }

    /// A member of a group of `members` writes typing frames on a bare events socket as fast as
    /// its socket takes them for `seconds`, starting and stopping in turn, while two other
    /// members exchange a message every half second in the group: how late those messages reach
    /// their reader, and how many typing notices reached a member.
    func typingStorm(_ world: some LoadTarget, members: Int) async throws -> Result {
        let (group, attacker, sender, receiver, _) = try await stormGroup(world, members: members, title: "Typing")
        let notices = try await receiver.services.typing.typingNotices()
        let heard = Task {
            var count = 0
            for await notice in notices where notice.userID == attacker.id { count += 1 }
            return count
        }
        let socket = try await LoadSocket.open(world.url, token: attacker.token)
        let heardMessages = try await receiver.events.liveMessages(in: group)
        let deadline = ContinuousClock.now + .seconds(seconds)
        let storming = Task {
            var written = 0
            while ContinuousClock.now < deadline {
                try await socket.sayTyping(written % 2 == 0, in: group)
                written += 1
            }
            return written
        }
        let bystanders = try await bystanderLatency(from: sender, heard: heardMessages, in: group) { ContinuousClock.now < deadline }
        let written = try await storming.value
        socket.close()
        heard.cancel()
        let reached = await heard.value
        return Result(
            key: bystanders.worst,
            line: "a group of \(members + 3): \(written) typing frames in \(seconds) s, \(reached) notices reached a member; "
                + "other members' messages: \(bystanders.line)")
    }

    /// A group of `members` and three more people, all in it: the attacker who made it, a sender
    /// and a receiver; and the `members`.
    func stormGroup(_ world: some LoadTarget, members: Int, title: String) async throws
        -> (ConversationID, attacker: LoadUsers.User, sender: LoadUsers.User, receiver: LoadUsers.User, members: [LoadUsers.User])
    {
        let people = try await world.users(members + 3)
        let attacker = people[0]
        // A group of strangers is an invitation even from someone one accepts: each accepts it.
        let group = try await attacker.conversations.createGroup(title: title, memberIDs: people.dropFirst().map(\.id)).id
        _ = try await ServerFixture.concurrently(members + 2, width: 16) { index in try await people[index + 1].conversations.accept(group) }
        return (group, attacker, people[1], people[2], Array(people.dropFirst(3)))
    }

    /// `sender` sends to `conversation` every `every` while `running` says so; how late each
    /// comes in `heard` (the live messages of its reader, subscribed before the attack starts, so
    /// that the attack cannot keep her from listening): the worst (infinite when one did not
    /// arrive within a minute) and a line.
    func bystanderLatency(
        from sender: LoadUsers.User, heard: AsyncStream<Message>, in conversation: ConversationID,
        every: Duration = .milliseconds(500), while running: () -> Bool
    ) async throws -> (worst: Double, line: String) {
        let delays = Mutex<[Double]>([])
        let sentAt = Mutex<[MessageID: ContinuousClock.Instant]>([:])
        let listener = Task {
            for await message in heard {
                guard let sent = sentAt.withLock({ $0[message.id] }) else { continue }
                delays.withLock { $0.append((ContinuousClock.now - sent) / .milliseconds(1)) }
            }
        }
        defer { listener.cancel() }
        var (sent, failed) = (0, [String]())
        while running() {
            let id = MessageID.random()
            sentAt.withLock { $0[id] = .now }
            // A send the client gave up on (no answer within 10 s) may still be stored and delivered late.
            do { _ = try await sender.chat.send(id: id, text: "still there? \(sent)", to: conversation) } catch {
                failed.append(AppError(error).message)
            }
            sent += 1
            try await Task.sleep(for: every)
        }
        // Messages still on their way are late by at least the time waited for them.
        let waitUntil = ContinuousClock.now + .seconds(60)
        while delays.withLock({ $0.count }) < sent, ContinuousClock.now < waitUntil { try await Task.sleep(for: .milliseconds(50)) }
        let late = delays.withLock { $0 }
        let worst = late.count < sent ? Double.infinity : late.max() ?? 0
        let failures = failed.isEmpty ? "" : "\(failed.count) sends unanswered (\(failed[0])), "
        return (
            worst,
            failures + "\(late.count) of \(sent) delivered, p50 \(Stats.format(Stats.percentile(late, 0.5), 1)) ms, "
                + "p99 \(Stats.format(Stats.percentile(late, 0.99), 1)) ms, "
                + "worst \(worst.isFinite ? Stats.format(worst, 1) + " ms" : "not delivered within a minute")"
        )
    }

    /// One person puts `members` strangers in as many groups as the server lets them make in
    /// `seconds`: what a victim's list then costs, and bystanders' sends while 16 victims
    /// read theirs at once.
    func groupFlood(_ world: some LoadTarget, members: Int) async throws -> Result {
        let attacker = try await world.users(1)[0]
        let victims = try await world.users(members)
        let deadline = ContinuousClock.now + .seconds(seconds)
        var (made, refused) = (0, 0)
        while ContinuousClock.now < deadline {
            do {
                _ = try await attacker.conversations.createGroup(title: "Free crypto! Click here", memberIDs: victims.map(\.id))
                made += 1
            } catch {
                refused += 1
            }
        }
        let list = try await Self.get(world.url + "/v1/conversations", token: victims[0].token)
        let pair = try await world.pairs(1)[0]
        let started = ContinuousClock.now
        async let lists = ServerFixture.concurrently(16, width: 16) { index in
            try await Self.get(world.url + "/v1/conversations", token: victims[index].token)
        }
        var latencies: [Double] = []
        for index in 0..<5 {
            let sent = ContinuousClock.now
            _ = try await pair.sender.chat.send(id: .random(), text: "bystander \(index)", to: pair.conversation)
            latencies.append((ContinuousClock.now - sent) / .milliseconds(1))
        }
        _ = try await lists
        let peak = try world.serverPIDs().map(Child.residentBytes).reduce(0, +)
        return Result(
            key: list.seconds,
            line: "\(made) groups of \(members + 1) made in \(seconds) s (\(refused) refused); a victim's list: "
                + "\(list.bytes) bytes in \(Stats.format(list.seconds * 1_000, 1)) ms; 16 victims' lists at once took "
                + "\(Stats.format((ContinuousClock.now - started) / .seconds(1), 2)) s, a bystander's sends meanwhile "
                + latencies.map { Stats.format($0, 1) }.joined(separator: ", ") + " ms; server RSS after \(peak / 1_048_576) MiB")
    }

    /// A `GET` of `url` with `token`, its body read to the end and counted, not decoded (the
    /// answers of servers of other versions are measured too): its status, bytes and seconds.
    /// In this process, on connections of its own: an attacker's requests cost this machine
    /// what they would cost a client elsewhere, not a `curl` process each: started 64 at once,
    /// those put a bystander's p99 under `--mode pages` at 270 ms, against 18 ms in process, on
    /// the same server.
    static func get(_ url: String, token: String) async throws -> (status: Int, bytes: Int, seconds: Double) {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let start = ContinuousClock.now
        let response = try await attackClient.execute(request, timeout: .seconds(300))
        var bytes = 0
        for try await chunk in response.body { bytes += chunk.readableBytes }
        return (Int(response.status.code), bytes, (ContinuousClock.now - start) / .seconds(1))
    }

    /// The client of `get` and of the hooks' tools: as many connections at once as the attacks
    /// ask for (64), or tools post.
    static let attackClient = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: {
            var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 128
            return configuration
        }())
}
