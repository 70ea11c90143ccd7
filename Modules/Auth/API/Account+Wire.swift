import Auth
import Kernel

extension Account: WireType {
    public static let schema = WireSchema.object([("id", .identifier), ("email", .string(maxLength: Validation.maxEmailBytes))],
                                                 required: ["id", "email"])
}
