import ArchitectureModel
import Foundation

/// Writes a complete feature plugin into a package, and takes it out again.
public struct FeatureScaffold {
    /// The feature's name, UpperCamelCase (`Notes`).
    public let name: String
    /// Whether it also gets a wire contract, server routes and a remote service (`--wire`).
    public let wire: Bool
    /// Whether its rules are a service over a store port, with stores in memory, SQLite and
    /// PostgreSQL (`--store`), rather than one in-memory service.
    public let store: Bool

    /// Checks `name`: an UpperCamelCase Swift identifier of 2–40 letters and digits, not reserved.
    /// - Throws: `ToolError` saying what is wrong.
    public init(name: String, wire: Bool = false, store: Bool = false) throws {
        guard (2...40).contains(name.count), name.first?.isUppercase == true,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else {
            throw ToolError("'\(name)' is not a feature name: use 2–40 ASCII letters and digits, starting with a capital (e.g. Notes)")
        }
        guard !ModuleRole.reservedFolderNames.contains(name) else { throw ToolError("'\(name)' is reserved for a shared folder of Modules/") }
        self.name = name
        self.wire = wire
        self.store = store
    }

    /// The feature's name in commands and the `features` setting (`notes`).
    public var commandName: String { name.lowercased() }

    /// The folders the feature owns, relative to the package root.
    public var folders: [String] { ["Modules/\(name)", "Tests/\(name)Tests"] }

    /// The files it writes, relative to the package root.
    public var files: [String: String] {
        var files = FeatureTemplates.files.merging(wire ? FeatureTemplates.wireFiles : [:]) { $1 }
        if store {
            files["Modules/__Name__/Core/InMemory__Name__Service.swift"] = nil
            files.merge(StoreTemplates.files) { $1 }
        }
        return Dictionary(uniqueKeysWithValues: files.map { (fill($0.key), fill($0.value)) })
    }

    /// Writes the feature's files and registration lines into the package at `root`.
    /// - Returns: the paths written or changed, relative to `root`.
    /// - Throws: `ToolError` when the feature's folders exist, it is already registered, or a marker is missing;
    ///   nothing is written then.
    public func generate(in root: URL) throws -> [String] {
        for folder in folders where FileManager.default.fileExists(atPath: root.appendingPathComponent(folder).path) {
            throw ToolError("\(folder) already exists; pick another name or remove it first")
        }
        let edits = try registrationEdits(in: root, adding: true)
        for (path, text) in files.sorted(by: { $0.key < $1.key }) {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .withoutOverwriting)
        }
        try edits.forEach { try Data($0.value.utf8).write(to: root.appendingPathComponent($0.key)) }
        return files.keys.sorted() + edits.keys.sorted()
    }

    /// Removes the feature's folders and registration lines (with or without `--wire`) from the package at `root`.
    /// - Returns: the paths removed or changed, relative to `root`.
    public func remove(from root: URL) throws -> [String] {
        let edits = try registrationEdits(in: root, adding: false)
        let present = folders.filter { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }
        guard !present.isEmpty || !edits.isEmpty else { throw ToolError("there is no feature \(name) to remove") }
        try present.forEach { try FileManager.default.removeItem(at: root.appendingPathComponent($0)) }
        try edits.forEach { try Data($0.value.utf8).write(to: root.appendingPathComponent($0.key)) }
        return present + edits.keys.sorted()
    }

    /// The registration files' new texts (path → text), with the feature's lines added or taken out.
    private func registrationEdits(in root: URL, adding: Bool) throws -> [String: String] {
        var texts: [String: [String]] = [:]
        // Removing takes out every line the feature may have, with or without `--wire`.
        for registration in adding ? Registration.all(store: store) + (wire ? Registration.wire : []) : Registration.any {
            var lines =
                try texts[registration.file]
                ?? String(contentsOf: root.appendingPathComponent(registration.file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let line = fill(registration.line)
            if adding {
                guard !lines.contains(line) else { throw ToolError("\(name) is already registered in \(registration.file)") }
                guard let marker = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == registration.marker }) else {
                    throw ToolError("\(registration.file) has lost its marker line '\(registration.marker)'; put it back where features are listed")
                }
                lines.insert(line, at: marker)
            } else {
                lines.removeAll { $0 == line }
            }
            texts[registration.file] = lines
        }
        let changed = try Set(texts.keys).filter { path in
            try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) != texts[path]!.joined(separator: "\n")
        }
        return Dictionary(uniqueKeysWithValues: changed.map { ($0, texts[$0]!.joined(separator: "\n")) })
    }

    private func fill(_ template: String) -> String {
        let (service, sample) =
            store ? (StoreTemplates.service, StoreTemplates.sampleService) : ("InMemory__Name__Service(items: items)", "InMemory__Name__Service()")
        return template.replacingOccurrences(of: "__service__", with: service).replacingOccurrences(of: "__newService__", with: sample)
            .replacingOccurrences(of: "__Name__", with: name).replacingOccurrences(of: "__name__", with: commandName)
    }
}
