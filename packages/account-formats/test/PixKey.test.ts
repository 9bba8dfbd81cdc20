import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import * as fc from "fast-check"
import { PixKey } from "../src/index.js"

describe("PixKey", () => {
  it("checks CPF and CNPJ check digits", () => {
    for (const cpf of ["52998224725", "11144477735"]) expect(PixKey.isCpf(cpf), cpf).toBe(true)
    for (const cpf of ["52998224726", "11111111111", "5299822472", "529982247250"])
      expect(PixKey.isCpf(cpf), cpf).toBe(false)
    for (const cnpj of ["11222333000181", "11444777000161"]) expect(PixKey.isCnpj(cnpj), cnpj).toBe(true)
    for (const cnpj of ["11222333000182", "00000000000000", "1122233300018"])
      expect(PixKey.isCnpj(cnpj), cnpj).toBe(false)
  })

  it("detects any single-digit change of a CPF", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 1, max: 9 }), (position, delta) => {
        const cpf = "52998224725"
        const changed = cpf.slice(0, position) + String((Number(cpf[position]) + delta) % 10) + cpf.slice(position + 1)
        expect(PixKey.isCpf(changed)).toBe(false)
      })
    )
  })

  it("recognises each kind of key and checks a key against its declared kind", () => {
    const keys: ReadonlyArray<readonly [string, PixKey.PixKeyType]> = [
      ["52998224725", "CPF"],
      ["11222333000181", "CNPJ"],
      ["ada@example.com.br", "EMAIL"],
      ["+5511987654321", "PHONE"],
      ["123e4567-e89b-12d3-a456-426614174000", "RANDOM"]
    ]
    for (const [key, type] of keys) {
      expect(PixKey.pixKeyTypeOf(key)).toBe(type)
      expect(PixKey.isPixKeyOf(type, key)).toBe(true)
      expect(Schema.is(PixKey.PixKey)(key)).toBe(true)
    }
    expect(PixKey.isPixKeyOf("CPF", "ada@example.com.br")).toBe(false)
    for (const key of [
      "+1415555123",
      "not a key",
      "123E4567-E89B-12D3-A456-426614174000",
      `${"a".repeat(71)}@ex.com`
    ]) {
      expect(Schema.is(PixKey.PixKey)(key), key).toBe(false)
    }
    expect(Schema.is(PixKey.BrazilianTaxId)("52998224725")).toBe(true)
    expect(Schema.is(PixKey.BrazilianTaxId)("529.982.247-25")).toBe(false)
  })
})
