import ArchitectureModel
import SwiftSyntax

/// Services: protocols, `Sendable`, plain model types out; implementations named by their
/// backend, holding no UI state. A decorator, which holds another implementation of the service
/// it implements and serves in front of every backend's (a filter of what a caller may see),
/// is named for what it does. Needs every file at once, since a protocol and its
/// implementations live in different targets.
struct ServiceRules {
    /// Prefixes of a service implementation: one per backend, or `Stored` for the one service of
    /// several backends over a store port (`…Store`) whose implementations read facts and write
    /// outcomes (ADR 31).
    static let implementationPrefixes = ["InMemory", "SQL", "Remote", "Postgres", "Stored"]
    /// Storage and wire types a service must not hand out.
    static let storageNames: Set<String> = [
        "Row", "Database", "DatabaseQueue", "DatabasePool", "Statement", "Data", "ByteBuffer",
        "HTTPRequest", "HTTPResponse", "Request", "Response",
    ]
    static let storageSuffixes = ["DTO", "Record", "Row", "Payload"]

    let files: [SourceFile]

    func check() -> [Violation] {
        let declarations = files.flatMap { file in TypeDeclaration.all(in: file).map { (file, $0) } }
        let services = declarations.filter { $0.1.isProtocol && $0.1.name.hasSuffix("Service") }
        let serviceNames = Set(services.map(\.1.name))
        let sendable = sendableProtocols(declarations.map(\.1).filter(\.isProtocol))
        var found: [Violation] = []
        for (file, service) in services {
            if !sendable.contains(service.name) {
                found.append(
                    file.violation(.serviceSendable, at: service.node, "\(service.name) must be Sendable: services are called from any task"))
            }
            found += requirementTypes(service, file)
            // The mock: an in-memory service, or the stored service over an in-memory store.
            let store = "InMemory" + service.name.dropLast("Service".count) + "Store"
            let mocks = [["InMemory\(service.name)"], ["Stored\(service.name)", store]]
            if case .featureCore = file.target.role,
                !mocks.contains(where: { names in
                    names.allSatisfy { name in declarations.contains { $0.0.target.name == file.target.name && $0.1.name == name } }
                })
            {
                found.append(
                    file.violation(
                        .inMemoryImplementation, at: service.node,
                        "\(service.name) has no InMemory\(service.name), nor Stored\(service.name) and \(store), in \(file.target.name); every service has a mock beside it"
                    ))
            }
        }
        for (file, type) in declarations where !type.isProtocol {
            found += implementation(type, file, services: serviceNames)
        }
        return found
    }

    private func implementation(_ type: TypeDeclaration, _ file: SourceFile, services: Set<String>) -> [Violation] {
        let conformed = type.inherited.filter(services.contains)
        guard type.name.hasSuffix("Service") || !conformed.isEmpty else { return [] }
        let allowed = conformed.flatMap { service in Self.implementationPrefixes.map { $0 + service } }
        if conformed.isEmpty {
            let prefixed = Self.implementationPrefixes.contains(where: type.name.hasPrefix)
            return [
                file.violation(
                    prefixed ? .implementationName : .serviceProtocol, at: type.node,
                    prefixed
                        ? "\(type.name) implements no …Service protocol"
                        : "\(type.name) is a concrete \(type.kind); declare the service as a protocol and name implementations InMemory…/SQL…/Remote…/Postgres…/Stored…"
                )
            ]
        }
        var found: [Violation] = []
        let decorates = type.storedPropertyTypes.contains { typeNames(in: $0.1).contains(where: conformed.contains) }
        if !allowed.contains(type.name), !decorates {
            found.append(
                file.violation(
                    .implementationName, at: type.node,
                    "\(type.name) implements \(conformed.joined(separator: ", ")); name it \(allowed.joined(separator: " or "))"))
        }
        for attribute in type.attributes where attribute == "MainActor" || attribute == "Observable" {
            found.append(file.violation(.serviceUIState, at: type.node, "\(type.name) is @\(attribute); UI state belongs in view models"))
        }
        for (variable, propertyType) in type.storedPropertyTypes
        where typeNames(in: propertyType).contains(where: { $0.hasSuffix("ViewModel") || $0 == "Loadable" }) {
            found.append(
                file.violation(
                    .serviceUIState, at: variable, "\(type.name) stores \(propertyType.trimmedDescription); UI state belongs in view models"))
        }
        return found
    }

    private func requirementTypes(_ service: TypeDeclaration, _ file: SourceFile) -> [Violation] {
        service.memberDecls.flatMap { member -> [(Syntax, TypeSyntax)] in
            if let function = member.as(FunctionDeclSyntax.self), let type = function.signature.returnClause?.type {
                return [(Syntax(function), type)]
            }
            if let variable = member.as(VariableDeclSyntax.self) {
                return variable.bindings.compactMap { binding in binding.typeAnnotation.map { (Syntax(variable), $0.type) } }
            }
            return []
        }.compactMap { node, type in
            guard let name = typeNames(in: type).first(where: isStorageType) else { return nil }
            return file.violation(.servicePlainTypes, at: node, "\(service.name) hands out \(name); return plain model types")
        }
    }

    private func isStorageType(_ name: String) -> Bool {
        Self.storageNames.contains(name) || Self.storageSuffixes.contains(where: name.hasSuffix)
    }

    /// Protocols that are `Sendable`: directly, through `Actor`, or through another such protocol.
    private func sendableProtocols(_ protocols: [TypeDeclaration]) -> Set<String> {
        var sendable: Set<String> = ["Sendable", "Actor"]
        var grew = true
        while grew {
            grew = false
            for declaration in protocols
            where !sendable.contains(declaration.name)
                && declaration.inherited.contains(where: sendable.contains)
            {
                sendable.insert(declaration.name)
                grew = true
            }
        }
        return sendable
    }
}
