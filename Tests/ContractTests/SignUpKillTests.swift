import Foundation
import GRDB
import Kernel
import ServiceGraph
import TestSupport
import Testing

/// Sign-up is one transaction across Auth and Profile: a `messageai signup` process killed (-9)
/// exactly between writing the account and writing its profile (the fault point
/// `sign-up.account-written`), or at seeded random moments, leaves for each email no account or a
/// complete one, and signing up again either succeeds or reports the conflict with an account
/// that signs in.
@Suite("Sign-up killed at any moment", .timeLimit(.minutes(3)))
struct SignUpKillTests {
    /// A scratch database and the `messageai signup` processes run over it.
    struct World {
        let machine = LocalMachine("kill")
        var databasePath: String { machine.databasePath }

        func signUp(_ index: Int, fault: FaultPoint? = nil, killAfter delay: Double? = nil) async throws -> Process {
            var machine = machine
            machine.environment[FaultPoint.variable] = fault?.rawValue ?? ""
            let process = try machine.process(["signup", "--email", "k\(index)@example.com", "--name", "K \(index)", "--password-stdin"])
            let input = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try input.fileHandleForWriting.write(contentsOf: Data("password-\(index)\n".utf8))
            try input.fileHandleForWriting.close()
            if let delay {
                // A timer of its own rather than a sleep of this task: under a loaded suite the
                // task may wake long after the process has exited.
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                }
            }
            await process.ended()
            return process
        }

        /// Accounts without a profile, and accounts of `k…@example.com` with one.
        func counts() async throws -> (orphans: Int, complete: Int) {
            let database = try DatabaseQueue(path: databasePath)
            return try await database.read { db in
                (
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM auth_accounts a LEFT JOIN profiles p ON p.id = a.id WHERE p.id IS NULL") ?? -1,
                    try Int.fetchOne(
                        db, sql: "SELECT count(*) FROM auth_accounts a JOIN profiles p ON p.id = a.id WHERE a.email LIKE 'k%@example.com'") ?? -1
                )
            }
        }

        /// Signs each of `indices` up again (success or conflict), then in with its password.
        func signUpAgainAndSignIn(_ indices: Range<Int>) async throws {
            for index in indices {
                let again = try await signUp(index).terminationStatus
                #expect(again == 0 || again == 67, "sign-up \(index) again exited \(again)")
            }
            let graph = try ServiceGraph(GraphOptions(backend: .sqlite, sqlitePath: databasePath))
            for index in indices {
                _ = try await graph.accounts.signIn(email: "k\(index)@example.com", password: "password-\(index)")
            }
        }
    }

    @Test("killed between the account and its profile: no account is left, and signing up again works")
    func killedBetweenTheWrites() async throws {
        let world = World()
        defer { world.machine.remove() }
        #expect(try await world.signUp(-1).terminationStatus == 0)
        for index in 0..<3 {
            let process = try await world.signUp(index, fault: .signUpAccountWritten)
            #expect(
                process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL,
                "sign-up \(index) was not stopped at its fault point: exit \(process.terminationStatus)")
        }
        let (orphans, complete) = try await world.counts()
        #expect(orphans == 0, "\(orphans) accounts without a profile")
        #expect(complete == 1, "only the undisturbed sign-up is complete: \(complete)")
        try await world.signUpAgainAndSignIn(0..<3)
        let after = try await world.counts()
        #expect(after.orphans == 0 && after.complete == 4, "\(after)")
    }

    @Test("killed at seeded random moments: no account without its profile")
    func killedAtRandom() async throws {
        let world = World()
        defer { world.machine.remove() }
        let seed = UInt64.random(in: 1...UInt64.max)
        print("SignUpKillTests.killedAtRandom seed \(seed)")
        var random = RandomText(seed: seed)
        // Undisturbed sign-ups measure how long the whole process takes (the fastest of three, as
        // other tests may load the machine); kills then land anywhere in it.
        var whole = Duration.seconds(60)
        for index in 1...3 {
            let started = ContinuousClock.now
            #expect(try await world.signUp(-index).terminationStatus == 0)
            whole = min(whole, ContinuousClock.now - started)
        }
        let rounds = 8
        var killed = 0
        for index in 0..<rounds {
            let seconds = Double(whole.components.seconds) + Double(whole.components.attoseconds) / 1e18
            let fraction = 0.2 + 0.8 * Double(random.next() % 1_000) / 1_000
            if try await world.signUp(index, killAfter: seconds * fraction).terminationReason == .uncaughtSignal { killed += 1 }
        }
        #expect(killed > 0, "seed \(seed): no run was killed before it finished")
        #expect(try await world.counts().orphans == 0, "seed \(seed)")
        try await world.signUpAgainAndSignIn(0..<rounds)
        let after = try await world.counts()
        #expect(after.orphans == 0 && after.complete == rounds + 3, "seed \(seed): \(after)")
    }
}
