import { StorageConformance } from "@payrail/storage-testkit"
import { StorageMemory } from "@payrail/storage-memory"

StorageConformance.run("memory", StorageMemory.layer)
