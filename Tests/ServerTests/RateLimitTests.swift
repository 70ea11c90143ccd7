import Auth
import Chat
import Foundation
import Kernel
import ServerSupport
import Synchronization
import Testing

@testable import AuthServer

/// The limits on guessing passwords: token buckets that a flood of new keys cannot reset, keyed
/// so that a stranger's guesses do not lock an account's owner out, and spent only on passwords
/// actually checked.
@Suite("Rate limits", .timeLimit(.minutes(3)))
struct RateLimitTests {
    @Test("a key held back stays held back however many new keys arrive: those held back least are forgotten, never all")
    func floodKeepsPenalties() {
        let limiter = RateLimiter(burst: 2, refill: .seconds(60), capacity: 100)
        let start = ContinuousClock.now
        #expect(limiter.spend("victim", now: start) == nil && limiter.spend("victim", now: start) == nil)
        #expect(limiter.spend("victim", now: start) != nil)
        for index in 0..<1_000 { _ = limiter.spend("junk-\(index)", now: start + .milliseconds(index)) }
        #expect(limiter.spend("victim", now: start + .seconds(1)) != nil, "the flood gave the held-back key its attempts back")
    }

    @Test("an attempt given back can be spent again; a key never seen gets nothing back")
    func refund() {
        let limiter = RateLimiter(burst: 1, refill: .seconds(60))
        #expect(limiter.spend("k") == nil && limiter.spend("k") != nil)
        limiter.refund("k")
        #expect(limiter.spend("k") == nil)
        limiter.refund("never")
        #expect(limiter.spend("never") == nil && limiter.spend("never") != nil)
    }

    @Test(
        "addresses count as clients: IPv4 as it is, IPv6 by its /64, an IPv4-mapped one as IPv4",
        arguments: [
            ("127.0.0.9", "127.0.0.9"), ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"), ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
            ("::ffff:10.0.0.7", "10.0.0.7"), ("unknown", "unknown"),
        ])
    func addressKeys(address: String, key: String) {
        #expect(ClientAddress.limitKey(address) == key)
    }

    @Test("a password check the server was too busy to make spends no attempt")
    func busySpendsNothing() async throws {
        let limits = SignInLimits(perAccountAndAddress: RateLimiter(burst: 2, refill: .seconds(60)))
        for _ in 0..<5 {
            await #expect(throws: AppError(.unavailable, "busy")) {
                try await limits.checking(email: "ada@example.com", address: "127.0.0.1") { throw AppError(.unavailable, "busy") }
            }
        }
        for _ in 0..<2 {
            await #expect(throws: AuthRules.wrongCredentials) {
                try await limits.checking(email: "ada@example.com", address: "127.0.0.1") { throw AuthRules.wrongCredentials }
            }
        }
        await #expect(throws: RetryLater.self) { try await limits.checking(email: "ada@example.com", address: "127.0.0.1") {} }
    }

    @Test("a stranger's wrong guesses from one address leave the owner free to sign in from another")
    func noTargetedLockout() async throws {
        try await InProcessServer.live { world in
            let owner = ["email": "owner@example.com", "displayName": "Owner", "password": "password-owner"]
            #expect(try await world.probe.send("POST", "/v1/auth/signup", json: owner).status == 201)
            var guesses: [Int] = []
            for index in 0..<7 {
                guesses.append(
                    try await world.probe.send(
                        "POST", "/v1/auth/signin", json: ["email": " Owner@Example.com ", "password": "guess-\(index)"],
                        from: "127.0.0.66"
                    ).status)
            }
            #expect(guesses == [401, 401, 401, 401, 401, 429, 429])
            let right = try await world.probe.send(
                "POST", "/v1/auth/signin", json: ["email": "owner@example.com", "password": "password-owner"],
                from: "127.0.0.50")
            #expect(right.status == 200, "the owner was locked out: \(right.status)")
        }
    }

    @Test(
        "100 wrong guesses from 20 addresses, then steady guessing from one: the owner's right password from a fresh address is let in, the guesses stay refused"
    )
    func noLockoutEverywhere() async throws {
        try await InProcessServer.live { world in
            func signIn(_ password: String, from address: String) async throws -> Int {
                try await world.probe.send("POST", "/v1/auth/signin", json: ["email": "victim@example.com", "password": password], from: address)
                    .status
            }
            let victim = ["email": "victim@example.com", "displayName": "Victim", "password": "password-victim"]
            #expect(try await world.probe.send("POST", "/v1/auth/signup", json: victim).status == 201)
            for address in 1...20 {
                for _ in 0..<5 { #expect(try await signIn("wrongwrong", from: "127.0.3.\(address)") == 401) }
            }
            // The attacker's address is checked once (it had not failed for the account), then refused.
            var guesses: [Int] = []
            for _ in 0..<10 { guesses.append(try await signIn("wrongwrong", from: "127.0.3.99")) }
            #expect(guesses == [401] + Array(repeating: 429, count: 9), "\(guesses)")
            for _ in 0..<3 { #expect(try await signIn("password-victim", from: "127.0.4.7") == 200, "the owner was locked out by others' guesses") }
            #expect(try await signIn("wrongwrong", from: "127.0.3.99") == 429, "a right password elsewhere gave the attacker guesses back")
        }
    }

    @Test("an attempt refused for the account is not given back: polling a held-back account spends the poller's own attempts")
    func refusalsNotRefunded() async throws {
        // The product's limits, but the address's attempts come back once an hour rather than
        // once a second, so that how long the polls take cannot give one back.
        let limits = SignInLimits(perAddress: RateLimiter(burst: 30, refill: .seconds(3_600)))
        func signIn(_ email: String, from address: String) async -> String {
            do {
                return try await limits.checking(email: email, address: address) { throw AuthRules.wrongCredentials }
            } catch is RetryLater {
                return "refused"
            } catch {
                return "checked"
            }
        }
        for address in 1...20 {
            for _ in 0..<5 { #expect(await signIn("held@example.com", from: "127.0.6.\(address)") == "checked") }
        }
        // 45 polls of the held-back account from one address: one check (the address was fresh
        // for it), then refusals, each spending one of the address's 30 attempts.
        var polls: [String] = []
        for _ in 0..<45 { polls.append(await signIn("held@example.com", from: "127.0.6.99")) }
        #expect(polls == ["checked"] + Array(repeating: "refused", count: 44), "\(polls)")
        #expect(await signIn("other@example.com", from: "127.0.6.99") == "refused", "the refused polls were given back to the address")
        #expect(await signIn("other@example.com", from: "127.0.6.100") == "checked")
    }

    @Test("changing the password checks the current one within the same limits as sign-in")
    func passwordChangeLimited() async throws {
        try await InProcessServer.router { probe in
            let ada = try await probe.signUp("Ada")
            var statuses: [Int] = []
            var retryAfter: String?
            for index in 0..<7 {
                let answer = try await probe.send(
                    "POST", "/v1/auth/password", token: ada.token,
                    json: ["current": "wrong-\(index)", "new": "password-new"])
                statuses.append(answer.status)
                if answer.status == 429 { retryAfter = answer.headers["retry-after"] }
            }
            #expect(statuses == [401, 401, 401, 401, 401, 429, 429])
            #expect(retryAfter.flatMap(Int.init).map { (1...12).contains($0) } == true)
        }
    }

    @Test("a bucket gives its burst at once, then one more per refill period, and says how long to wait")
    func refill() {
        let limiter = RateLimiter(burst: 5, refill: .seconds(12)), start = ContinuousClock.now
        for _ in 0..<5 { #expect(limiter.spend("k", now: start) == nil) }
        #expect(limiter.spend("k", now: start) == 12)
        #expect(limiter.spend("k", now: start + .seconds(11)) == 1)
        #expect(limiter.spend("k", now: start + .seconds(12)) == nil)
        #expect(limiter.spend("k", now: start + .seconds(12)) == 12)
        #expect(limiter.spend("other", now: start) == nil, "another key has its own bucket")
    }

    @Test("the product's limits through the server: 30 password checks per address, 20 sign-ups per address, 100 per account")
    func productLimits() async throws {
        try await InProcessServer.live { world in
            func signIn(_ email: String, from address: String) async throws -> HTTPProbe.Answer {
                try await world.probe.send("POST", "/v1/auth/signin", json: ["email": email, "password": "wrong-password"], from: address)
            }
            // Per address: 30 checks of as many accounts at once, then one a second; asked together
            // so that few seconds pass to refill it.
            let started = ContinuousClock.now
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<45 { group.addTask { try await signIn("u\(index)@example.com", from: "127.0.1.1").status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let seconds = Int((ContinuousClock.now - started).components.seconds) + 1
            let checked = statuses.filter { $0 == 401 }.count
            #expect(
                checked >= 30 && checked <= 30 + seconds && statuses.filter { $0 == 429 }.count == 45 - checked,
                "\(checked) checked of 45 in under \(seconds) s: \(statuses)")
            let refused = try await signIn("u45@example.com", from: "127.0.1.1")
            #expect(refused.status == 401 || refused.headers["retry-after"] == "1", "\(refused.status) \(refused.headers)")
            #expect(try await signIn("u45@example.com", from: "127.0.1.2").status == 401, "another address has its own limit")

            // Sign-ups per address: 20 at once, then one every 3 s; asked together, as above.
            let signUpStart = ContinuousClock.now
            let signUps = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<30 {
                    group.addTask {
                        try await world.probe.send(
                            "POST", "/v1/auth/signup",
                            json: [
                                "email": "new\(index)@example.com", "displayName": "New \(index)", "password": "password-\(index)",
                            ], from: "127.0.2.1"
                        ).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let refills = Int((ContinuousClock.now - signUpStart).components.seconds) / 3 + 1
            let made = signUps.filter { $0 == 201 }.count
            #expect(
                made >= 20 && made <= 20 + refills && signUps.filter { $0 == 429 }.count == 30 - made,
                "\(made) sign-ups of 30 with \(refills) refills: \(signUps)")

            // One account from everywhere: 100 checks (5 from each of 20 addresses), then one every 30 s.
            for address in 0..<20 {
                for _ in 0..<5 { #expect(try await signIn("new0@example.com", from: "127.0.3.\(address + 1)").status == 401) }
            }
            // Past them an address that has not failed for the account is checked once; its next guess is refused.
            #expect(try await signIn("new0@example.com", from: "127.0.4.1").status == 401)
            let past = try await signIn("new0@example.com", from: "127.0.4.1")
            #expect(
                past.status == 429 && past.headers["retry-after"].flatMap(Int.init).map { (1...30).contains($0) } == true,
                "\(past.status) \(past.headers)")
        }
    }

    @Test("with 64 password checks waiting, the next is refused with 503 and spends no attempt")
    func busyPasswordChecks() async throws {
        // A costly hash, so that checks pile up behind the pool's one or few threads.
        try await InProcessServer.live({ $0.bcryptCost = 10 }) { world in
            let signUp = try await world.probe.send(
                "POST", "/v1/auth/signup",
                json: [
                    "email": "ada@example.com", "displayName": "Ada",
                    "password": "password-Ada",
                ])
            #expect(signUp.status == 201)
            let statuses = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for index in 0..<90 {
                    group.addTask {
                        (
                            index,
                            try await world.probe.send(
                                "POST", "/v1/auth/signin", json: ["email": "ada@example.com", "password": "wrong-\(index)"],
                                from: "127.0.5.\(index + 1)"
                            ).status
                        )
                    }
                }
                return try await group.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
            }
            let busy = statuses.filter { $0.value == 503 }.map(\.key), checked = statuses.filter { $0.value == 401 }.count
            #expect(
                !busy.isEmpty && busy.count + checked == 90,
                "401: \(checked), 503: \(busy.count), others: \(statuses.filter { ![401, 503].contains($0.value) })")
            // A busy answer spends nothing: an address whose check was refused as busy signs in at once.
            if let address = busy.first {
                let right = try await world.probe.send(
                    "POST", "/v1/auth/signin", json: ["email": "ada@example.com", "password": "password-Ada"],
                    from: "127.0.5.\(address + 1)")
                #expect(right.status == 200, "\(right.status)")
            }
        }
    }

    @Test("a flood of sign-ins, password checks piling up, does not hold up messages")
    func signInFloodSparesMessages() async throws {
        try await InProcessServer.live({ $0.bcryptCost = 10 }) { world in
            let graph = try world.remoteGraph()
            let ada = try await world.probe.signUp("Ada"), grace = try await world.probe.signUp("Grace")
            let asAda = graph.services(for: graph.caller(token: ada.token)), asGrace = graph.services(for: graph.caller(token: grace.token))
            let direct = try await asAda.conversations.startDirect(with: UserID(grace.id))
            _ = try await asGrace.conversations.startDirect(with: UserID(ada.id))  // accepts
            let graceHears = Inbox.collecting(try await asGrace.events.liveMessages(in: direct.id))
            _ = try await asAda.chat.send(id: .random(), text: "before", to: direct.id)
            #expect(await graceHears.next(within: .seconds(10))?.text == "before")

            let done = Mutex(false)
            let flood = Task {
                defer { done.withLock { $0 = true } }
                return try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<80 {
                        group.addTask {
                            try await world.probe.send(
                                "POST", "/v1/auth/signin", json: ["email": "x\(index)@example.com", "password": "wrong-password"],
                                from: "127.0.7.\(index + 1)"
                            ).status
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
            }
            // For as long as the flood lasts (the checks pile up, some are refused as busy),
            // message after message reaches Grace well within a second.
            var slowest = Duration.zero, count = 0
            while !done.withLock({ $0 }) {
                let sent = ContinuousClock.now
                _ = try await asAda.chat.send(id: .random(), text: "during \(count)", to: direct.id)
                #expect(await graceHears.next(within: .seconds(5))?.text == "during \(count)")
                slowest = max(slowest, ContinuousClock.now - sent)
                count += 1
            }
            let statuses = try await flood.value
            #expect(statuses.contains(503), "the flood did not fill the password checks: \(Set(statuses))")
            #expect(count >= 10 && slowest < .seconds(1), "the slowest of \(count) messages during the flood took \(slowest)")
        }
    }
}
