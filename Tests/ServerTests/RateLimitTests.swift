import Auth
@testable import AuthServer
import Foundation
import Kernel
import ServerSupport
import Testing

/// The limits on guessing passwords: token buckets that a flood of new keys cannot reset, keyed
/// so that a stranger's guesses do not lock an account's owner out, and spent only on passwords
/// actually checked.
@Suite("Rate limits", .timeLimit(.minutes(1)))
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

    @Test("addresses count as clients: IPv4 as it is, IPv6 by its /64, an IPv4-mapped one as IPv4", arguments: [
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
                guesses.append(try await world.probe.send("POST", "/v1/auth/signin", json: ["email": " Owner@Example.com ", "password": "guess-\(index)"],
                                                          from: "127.0.0.66").status)
            }
            #expect(guesses == [401, 401, 401, 401, 401, 429, 429])
            let right = try await world.probe.send("POST", "/v1/auth/signin", json: ["email": "owner@example.com", "password": "password-owner"],
                                                   from: "127.0.0.50")
            #expect(right.status == 200, "the owner was locked out: \(right.status)")
        }
    }

    @Test("changing the password checks the current one within the same limits as sign-in")
    func passwordChangeLimited() async throws {
        try await InProcessServer.router { probe in
            let ada = try await probe.signUp("Ada")
            var statuses: [Int] = []
            var retryAfter: String?
            for index in 0..<7 {
                let answer = try await probe.send("POST", "/v1/auth/password", token: ada.token,
                                                        json: ["current": "wrong-\(index)", "new": "password-new"])
                statuses.append(answer.status)
                if answer.status == 429 { retryAfter = answer.headers["retry-after"] }
            }
            #expect(statuses == [401, 401, 401, 401, 401, 429, 429])
            #expect(retryAfter.flatMap(Int.init).map { (1...12).contains($0) } == true)
        }
    }
}
