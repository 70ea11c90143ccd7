import Foundation
import GRDB
import ServiceGraph
import Testing
import TestSupport

/// Sign-up is one transaction across Auth and Profile: `messageai signup` processes killed
/// (-9) at random moments leave, for each email, no account or a complete one, and signing up
/// again either succeeds or reports the conflict with an account that signs in.
@Suite("Sign-up killed at any moment", .timeLimit(.minutes(3)))
struct SignUpKillTests {
    static let rounds = 24

    @Test("no account without its profile; a second sign-up succeeds or conflicts with a usable account")
    func killDuringSignUp() async throws {
        let messageai = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("messageai")
        try #require(FileManager.default.isExecutableFile(atPath: messageai.path), "build messageai first (swift build)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ProcessInfo.processInfo.environment.merging([
            "MESSAGEAI_SQLITE_PATH": folder.appendingPathComponent("kill.sqlite").path,
            "MESSAGEAI_STATE_DIR": folder.appendingPathComponent("state").path,
            "MESSAGEAI_AUTH_BCRYPT_COST": "4",
        ]) { $1 }
        func signUp(_ index: Int, killAfter delay: Duration? = nil) async throws -> Process {
            let process = Process()
            process.executableURL = messageai
            process.arguments = ["signup", "--email", "k\(index)@example.com", "--name", "K \(index)", "--password-stdin"]
            process.environment = environment
            let input = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            input.fileHandleForWriting.write(Data("password-\(index)\n".utf8))
            try input.fileHandleForWriting.close()
            if let delay {
                // A timer of its own rather than a sleep of this task: under a loaded suite the
                // task may wake long after the process has exited.
                let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                }
            }
            await process.ended()
            return process
        }

        // Undisturbed sign-ups measure how long the whole process takes (the fastest of three, as
        // other tests may load the machine); kills then land anywhere in it.
        var whole = Duration.seconds(60)
        for index in 1...3 {
            let started = ContinuousClock.now
            #expect(try await signUp(-index).terminationStatus == 0)
            whole = min(whole, ContinuousClock.now - started)
        }
        var killed = 0
        for index in 0..<Self.rounds {
            let started = ContinuousClock.now
            let process = try await signUp(index, killAfter: whole * Double.random(in: 0.2...1.0))
            if process.terminationReason == .uncaughtSignal {
                killed += 1
            } else {
                // It finished first (waiting ends when it exits): the machine is quicker now
                // than when it was timed.
                whole = min(whole, ContinuousClock.now - started)
            }
        }
        #expect(killed > 0, "no run was killed before it finished")

        let database = try DatabaseQueue(path: folder.appendingPathComponent("kill.sqlite").path)
        let orphans = try await database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM auth_accounts a LEFT JOIN profiles p ON p.id = a.id WHERE p.id IS NULL") ?? -1
        }
        #expect(orphans == 0)
        for index in 0..<Self.rounds {
            let again = try await signUp(index).terminationStatus
            #expect(again == 0 || again == 67, "sign-up \(index) again exited \(again)")
        }
        let complete = try await database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM auth_accounts a JOIN profiles p ON p.id = a.id WHERE a.email LIKE 'k%@example.com'")
        }
        #expect(complete == Self.rounds + 3)
        let graph = try ServiceGraph(GraphOptions(backend: .sqlite, sqlitePath: folder.appendingPathComponent("kill.sqlite").path))
        for index in 0..<Self.rounds {
            _ = try await graph.accounts.signIn(email: "k\(index)@example.com", password: "password-\(index)")
        }
    }
}
