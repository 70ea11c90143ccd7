import ArchitectureModel
import Foundation

/// A copy of this package's working tree under `.build-scaffold/project`, kept between runs so
/// that building it again is incremental: syncing rewrites only files whose contents differ.
/// What SwiftPM writes there (`.build`, `.swiftpm`, `Package.resolved`) is left alone.
struct ProjectCopy {
    static let buildOutputs: Set<String> = [".build", ".swiftpm", "Package.resolved"]

    /// This package's root.
    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let root = source.appendingPathComponent(".build-scaffold/project")

    /// The package's files (tracked and new, not ignored), relative to its root.
    static func files() async throws -> [String] {
        let listing = try await ToolProcess.run(["git", "ls-files", "-co", "--exclude-standard"], in: source)
        return String(decoding: listing, as: UTF8.self).split(separator: "\n").map(String.init)
            .filter { FileManager.default.fileExists(atPath: source.appendingPathComponent($0).path) }
    }

    /// Makes the copy hold exactly `files` as they are in the package (its `.build` aside).
    func sync(_ files: [String]) throws {
        let wanted = Set(files)
        for stale in try existingFiles() where !wanted.contains(stale) {
            try FileManager.default.removeItem(at: root.appendingPathComponent(stale))
        }
        try removeEmptyFolders(in: root)
        for file in files {
            let contents = try Data(contentsOf: Self.source.appendingPathComponent(file))
            let target = root.appendingPathComponent(file)
            guard (try? Data(contentsOf: target)) != contents else { continue }
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents.write(to: target)
        }
    }

    /// Removes the folders below `folder` that hold no file (SwiftPM's outputs aside), such as a
    /// generated feature's, left by a run that stopped before removing it.
    private func removeEmptyFolders(in folder: URL) throws {
        let children = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isDirectoryKey])) ?? []
        for child in children where !Self.buildOutputs.contains(child.lastPathComponent) || folder != root {
            guard try child.resourceValues(forKeys: [.isDirectoryKey]).isDirectory == true else { continue }
            try removeEmptyFolders(in: child)
            if try FileManager.default.contentsOfDirectory(atPath: child.path).isEmpty { try FileManager.default.removeItem(at: child) }
        }
    }

    /// The files the copy holds, SwiftPM's outputs aside, relative to its root.
    func existingFiles() throws -> [String] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        let prefix = root.standardizedFileURL.path + "/"
        return try walker.compactMap { item -> String? in
            guard let url = item as? URL else { return nil }
            let path = String(url.standardizedFileURL.path.dropFirst(prefix.count))
            if Self.buildOutputs.contains(path) {
                walker.skipDescendants()
                return nil
            }
            return try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true ? path : nil
        }
    }

    /// Appended to the copy's manifest by `trim(keeping:)`, and recognised by `untrim()`.
    static let trimMarker = "// ProjectCopy.trim: only what these targets need is built"

    /// Makes the copy's package hold only `targets` and what they depend on (and the products
    /// among them), by appending to its manifest: building and testing it then compiles none of
    /// the rest (the server, the tools, the other tests and the packages only they use).
    func trim(keeping targets: [String]) throws {
        let manifest = root.appendingPathComponent("Package.swift")
        let kept = targets.map { "\"\($0)\"" }.joined(separator: ", ")
        let block = """

            \(Self.trimMarker)
            do {
                var kept: Set<String> = []
                var queue = [\(kept)]
                while let name = queue.popLast() {
                    guard kept.insert(name).inserted, let target = package.targets.first(where: { $0.name == name }) else { continue }
                    for dependency in target.dependencies {
                        switch dependency {
                        case .targetItem(let name, _), .byNameItem(let name, _): queue.append(name)
                        default: break
                        }
                    }
                }
                package.targets.removeAll { !kept.contains($0.name) }
                package.products.removeAll { !kept.contains($0.name) }
            }

            """
        try (try String(contentsOf: manifest, encoding: .utf8) + block).write(to: manifest, atomically: true, encoding: .utf8)
    }

    /// Takes back what `trim(keeping:)` appended.
    func untrim() throws {
        let manifest = root.appendingPathComponent("Package.swift")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        guard let start = text.range(of: "\n" + Self.trimMarker) else { return }
        try String(text[..<start.lowerBound]).write(to: manifest, atomically: true, encoding: .utf8)
    }

    /// Each file's contents, by path.
    func snapshot() throws -> [String: Data] {
        Dictionary(uniqueKeysWithValues: try existingFiles().map { ($0, try Data(contentsOf: root.appendingPathComponent($0))) })
    }
}
