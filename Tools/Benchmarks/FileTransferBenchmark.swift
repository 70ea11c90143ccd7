import ArgumentParser
import Files
import Foundation
import Kernel
import ServiceGraph
import TestSupport

/// Issue 40's goals for sending files, each against its floor in the same minutes, runs
/// alternated: a file sent and saved through `messageai-server` over loopback against `curl`
/// putting it to and getting it from nginx (a static file server), with the server's memory
/// growth; and a file sent on SQLite against `cp` of it to the same disk. Each send is what
/// `messageai send --file` does (upload streamed from the file, then the message), each save what
/// `messageai save` does.
struct FileTransferBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "file-transfer", abstract: "A file sent and saved through the server against curl and nginx; sent on SQLite against cp.")
    @Option(help: "The file through the server, in MiB.") var mebibytes = 1_024
    @Option(help: "The file sent on SQLite, in MiB.") var localMebibytes = 25
    @Option(help: "Runs of each; medians are printed.") var runs = 3

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-transfer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await local(in: folder)
        try await server(in: folder)
    }

    /// A `localMebibytes` file sent on SQLite, against `cp`.
    private func local(in folder: URL) async throws {
        let source = try Self.randomFile(folder.appendingPathComponent("local-source"), mebibytes: localMebibytes)
        let graph = try ServiceGraph(GraphOptions(backend: .sqlite, sqlitePath: folder.appendingPathComponent("local.sqlite").path, bcryptCost: 4))
        defer { graph.close() }
        let (sender, conversation) = try await Self.pair(graph)
        var (floor, ours, digests): ([Double], [Double], [Double]) = ([], [], [])
        for run in 0..<runs {
            let copy = folder.appendingPathComponent("local-copy")
            floor.append(try await Stats.time { try Self.program("/bin/cp", [source.path, copy.path]) })
            try FileManager.default.removeItem(at: copy)
            ours.append(try await Stats.time { try await Self.send(source, as: MessageID("l\(run)"), by: sender, in: conversation) })
            digests.append(try await Stats.time { _ = try await Self.digest(source) })
        }
        Self.report("sent on SQLite, \(localMebibytes) MiB", ours: ours, floor: floor, floorName: "cp", mebibytes: localMebibytes, goal: 0.5)
        // A send digests every byte (a message carries each file's SHA-256): no send is faster
        // than the digest alone, whatever else it overlaps with it.
        let (digest, copying) = (Stats.median(digests), Stats.median(floor))
        print(
            "files: the SHA-256 of those \(localMebibytes) MiB alone (read and digested, as a send does): median \(Stats.format(digest * 1000, 1)) ms; "
                + "cp / digest = \(Stats.format(copying / digest, 2)), the most a send could reach")
    }

    /// A `mebibytes` file sent and saved through the server, against curl and nginx, with the
    /// server's resident memory before and its peak after.
    private func server(in folder: URL) async throws {
        let source = try Self.randomFile(folder.appendingPathComponent("server-source"), mebibytes: mebibytes)
        let nginx = try Nginx(folder: folder.appendingPathComponent("nginx"))
        defer { nginx.stop() }
        let process = try await ServerProcess(
            databasePath: folder.appendingPathComponent("server.sqlite").path,
            arguments: [
                "--sign-up-burst", "1000", "--files-max-bytes", String(mebibytes << 21), "--files-quota-megabytes", String(mebibytes * 4 * runs),
            ])
        defer { process.stop() }
        let graph = try ServiceGraph(GraphOptions(backend: .remote, sqlitePath: "", remoteURL: process.url, remoteTimeout: .seconds(60)))
        defer { graph.close() }
        let (sender, conversation) = try await Self.pair(graph)
        let before = Child.residentBytes(of: process.processIdentifier)
        var (floor, ours): ([Double], [Double]) = ([], [])
        for run in 0..<runs {
            let copy = folder.appendingPathComponent("server-copy")
            floor.append(
                try await Stats.time {
                    try Self.program("/usr/bin/curl", ["-sSf", "-T", source.path, nginx.url + "/file"])
                    try Self.program("/usr/bin/curl", ["-sSf", "-o", copy.path, nginx.url + "/file"])
                })
            try FileManager.default.removeItem(at: copy)
            let message = MessageID("s\(run)")
            ours.append(
                try await Stats.time {
                    try await Self.send(source, as: message, by: sender, in: conversation)
                    _ = try await FileSaver(service: sender.files).save(message, in: conversation, to: copy.path, force: false)
                })
            guard try Self.program("/usr/bin/cmp", ["-s", source.path, copy.path]) else { throw ValidationError("the saved file differs") }
            try FileManager.default.removeItem(at: copy)
        }
        Self.report(
            "sent and saved through the server, \(mebibytes) MiB", ours: ours, floor: floor, floorName: "curl and nginx", mebibytes: mebibytes,
            goal: 0.5)
        let growth = (Child.peakResidentBytes(of: process.processIdentifier) - before) >> 20
        print("files: the server's resident memory grew by \(growth) MiB at its peak (goal: at most 32), from \(before >> 20) MiB")
    }

    /// What `messageai send --file` does: the file uploaded for `message`, streamed, then the message.
    static func send(_ source: URL, as message: MessageID, by sender: ServiceSet, in conversation: ConversationID) async throws {
        let (size, bytes) = try FileStreams.reading(source.path)
        let file = try await sender.files.upload(
            FileUpload(conversationID: conversation, messageID: message, name: source.lastPathComponent, declaredSize: size), bytes: bytes)
        _ = try await sender.chat.send(id: message, text: "", to: conversation, replyTo: nil, attachments: [file.id])
    }

    /// The SHA-256 of `source`, read in a send's chunks and digested as a send digests them.
    private static func digest(_ source: URL) async throws -> String {
        var digest = SHA256FileDigest()
        for try await chunk in try FileStreams.reading(source.path).bytes { digest.update(chunk) }
        return digest.hex()
    }

    /// A new user's services and a conversation of theirs with another new user.
    private static func pair(_ graph: ServiceGraph) async throws -> (ServiceSet, ConversationID) {
        let (first, second) = (try await signUp(graph, "ada"), try await signUp(graph, "bob"))
        let conversation = try await first.services.conversations.startDirect(with: second.id).id
        _ = try await second.services.conversations.startDirect(with: first.id)
        return (first.services, conversation)
    }

    private static func signUp(_ graph: ServiceGraph, _ name: String) async throws -> (id: UserID, services: ServiceSet) {
        let issued = try await graph.accounts.signUp(
            email: "\(name)-\(UUID().uuidString.prefix(6))@example.com", displayName: name, password: "password-\(name)")
        return (issued.account.id, graph.services(for: graph.caller(token: issued.token)))
    }

    private static func randomFile(_ path: URL, mebibytes: Int) throws -> URL {
        FileManager.default.createFile(atPath: path.path, contents: nil)
        let output = try FileHandle(forWritingTo: path)
        defer { try? output.close() }
        // A fast generator (SplitMix64), seeded once from the system's: one `getrandom` call a
        // byte took minutes of system time for a 1 GiB file.
        var generator = RandomText(seed: UInt64.random(in: .min ... .max))
        var block = [UInt64](repeating: 0, count: 1 << 17)
        for _ in 0..<mebibytes {
            for index in block.indices { block[index] = generator.next() }
            try block.withUnsafeBytes { try output.write(contentsOf: Data($0)) }
        }
        return path
    }

    /// Runs `path` with `arguments`; whether it exited 0.
    @discardableResult
    private static func program(_ path: String, _ arguments: [String]) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    private static func report(_ what: String, ours: [Double], floor: [Double], floorName: String, mebibytes: Int, goal: Double) {
        let (mine, theirs) = (Stats.median(ours), Stats.median(floor))
        print(
            "files: \(what): median \(Stats.format(mine, 2)) s (\(Stats.format(Double(mebibytes) / mine, 0)) MiB/s), \(floorName) "
                + "\(Stats.format(theirs, 2)) s: \(Stats.format(theirs / mine, 2)) of it (goal: at least \(goal); \(ours.count) runs)")
    }
}

/// nginx serving a folder on loopback, taking PUTs (its DAV module, in Debian's nginx-light).
private struct Nginx {
    let url: String
    private let process: Process

    init(folder: URL) throws {
        let www = folder.appendingPathComponent("www"), temporary = folder.appendingPathComponent("tmp")
        for path in [www, temporary] { try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true) }
        let port = TestPorts.reserve()
        let configuration = """
            daemon off; worker_processes 1; user root; pid \(folder.path)/nginx.pid; error_log \(folder.path)/error.log;
            events {}
            http {
                access_log off; client_max_body_size 0; client_body_temp_path \(temporary.path); sendfile on;
                server { listen 127.0.0.1:\(port); root \(www.path); dav_methods PUT; }
            }
            """
        try configuration.write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") else {
            throw ValidationError("the floor needs nginx: apt-get install nginx-light")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-c", folder.appendingPathComponent("nginx.conf").path]
        try process.run()
        url = "http://127.0.0.1:\(port)"
        // Ready once it answers.
        for _ in 0..<100 {
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            probe.arguments = ["-s", "-o", "/dev/null", url]
            try probe.run()
            probe.waitUntilExit()
            if probe.terminationStatus == 0 { return }
            usleep(50_000)
        }
        throw ValidationError("nginx did not start: see \(folder.path)/error.log")
    }

    func stop() { process.terminate() }
}

/// A send with a file by a new process (a new graph, as each `messageai send` is) over a SQLite
/// store already holding `files` files written two hours ago, against a text send the same way:
/// what a local process's clean-up pass after its first upload (`FileCleanup.passIfDue`, which
/// looks at every stored file old enough) costs a send as files pile up.
struct AgedStoreBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aged-store", abstract: "A file sent by a new process over a SQLite store of many old files, against a text send.")
    @Option(help: "Files in the store, written two hours ago.") var files = 10_000
    @Option(help: "Runs of each; medians are printed.") var runs = 5

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("messageai-aged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("aged.sqlite").path, small = folder.appendingPathComponent("small.txt")
        try Data("hello\n".utf8).write(to: small)
        let options = GraphOptions(backend: .sqlite, sqlitePath: path, bcryptCost: 4)
        let (token, conversation) = try await Self.store(files, of: small, options: options)
        // Two hours back: a pass looks at each of them, as it would a day after they were sent.
        let bytes = path + ".files", then = timeval(tv_sec: time(nil) - 7_200, tv_usec: 0)
        for name in try FileManager.default.contentsOfDirectory(atPath: bytes) { _ = utimes(bytes + "/" + name, [then, then]) }
        var (withFile, text): ([Double], [Double]) = ([], [])
        for run in 0..<runs {
            withFile.append(
                try await Self.inNewProcess(options, token) {
                    try await FileTransferBench.send(small, as: MessageID("f\(run)"), by: $0, in: conversation)
                })
            text.append(
                try await Self.inNewProcess(options, token) {
                    _ = try await $0.chat.send(id: MessageID("t\(run)"), text: "hello", to: conversation, replyTo: nil, attachments: [])
                })
        }
        print(
            "aged-store: \(files) files two hours old: a send with a file by a new process, median \(Stats.format(Stats.median(withFile) * 1000, 1)) ms; "
                + "a text send, \(Stats.format(Stats.median(text) * 1000, 1)) ms (\(runs) runs)")
    }

    /// A store of `count` uploads of `file` by a new user into a conversation with another; the
    /// user's session token and the conversation.
    private static func store(_ count: Int, of file: URL, options: GraphOptions) async throws -> (String, ConversationID) {
        let graph = try ServiceGraph(options)
        defer { graph.close() }
        let ada = try await graph.accounts.signUp(email: "ada@example.com", displayName: "Ada", password: "password-ada")
        let bob = try await graph.accounts.signUp(email: "bob@example.com", displayName: "Bob", password: "password-bob")
        let services = graph.services(for: graph.caller(token: ada.token))
        let conversation = try await services.conversations.startDirect(with: bob.account.id).id
        _ = try await graph.services(for: graph.caller(token: bob.token)).conversations.startDirect(with: ada.account.id)
        for number in 0..<count {
            let (size, bytes) = try FileStreams.reading(file.path)
            _ = try await services.files.upload(
                FileUpload(conversationID: conversation, messageID: MessageID("m\(number)"), name: "small.txt", declaredSize: size), bytes: bytes)
        }
        return (ada.token, conversation)
    }

    /// How long `work` takes as `token`'s in a new graph over the store, its opening not counted.
    private static func inNewProcess(_ options: GraphOptions, _ token: String, _ work: (ServiceSet) async throws -> Void) async throws -> Double {
        let graph = try ServiceGraph(options)
        defer { graph.close() }
        let services = graph.services(for: graph.caller(token: token))
        return try await Stats.time { try await work(services) }
    }
}
