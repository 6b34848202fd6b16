// The msgpack and JSON forms of Terraform's values, decoded with their types
// and encoded back as terraform-plugin-go writes them.
import { encode } from "@msgpack/msgpack";
import { describe, expect, it } from "vitest";
import { UNKNOWN, type TfType, type TfValue } from "../../src/terraform/contract.js";
import { decodeDynamicValue, decodeJson, decodeMsgpack, encodeDynamicValue, encodeMsgpack, formatPath, TfCodecError, typeJson } from "../../src/terraform/codec.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const roundTrip = (value: TfValue, type: TfType) => decodeMsgpack(encodeMsgpack(value, type), type);

describe("round trips of every type", () => {
  const cases: [string, TfType, TfValue][] = [
    ["string", "string", "ünïcode"],
    ["number (int)", "number", -42],
    ["number (float)", "number", 1.5],
    ["bool", "bool", true],
    ["list", ["list", "string"], ["a", "b"]],
    ["set", ["set", "number"], [1, 2, 3]],
    ["map", ["map", "bool"], { a: true, "not an identifier": false }],
    ["object", ["object", { name: "string", count: "number", tags: ["map", "string"] }], { name: "x", count: 3, tags: { k: "v" } }],
    ["nested", ["list", ["object", { a: ["set", ["list", "number"]] }]], [{ a: [[1], [2, 3]] }, { a: [] }]],
    ["dynamic string", "dynamic", "text"],
    ["dynamic object", "dynamic", { a: 1, b: ["x", true] }],
    ["null at the top", ["object", { a: "string" }], null],
  ];
  it.each(cases)("%s", (_name, type, value) => {
    expect(roundTrip(value, type)).toEqual(value);
  });

  it("unknown anywhere, in any type", () => {
    const type: TfType = ["object", { id: "string", list: ["list", "number"], m: ["map", "string"], d: "dynamic" }];
    const value: TfValue = { id: UNKNOWN, list: [1, UNKNOWN], m: { k: UNKNOWN }, d: UNKNOWN };
    expect(roundTrip(value, type)).toEqual(value);
    expect(roundTrip(UNKNOWN, type)).toBe(UNKNOWN);
  });
});

describe("decoding what Terraform sends", () => {
  it("unknown as extension 0 and as extension 12 (a refined unknown, payload ignored)", () => {
    expect(decodeMsgpack(Buffer.from("d40000", "hex"), "string")).toBe(UNKNOWN);
    // ext 12 with a refinement payload (a map: "not null").
    expect(decodeMsgpack(Buffer.from("c7030c81 01c3".replace(/ /g, ""), "hex"), "string")).toBe(UNKNOWN);
    expect(decodeMsgpack(Buffer.from("d50c0102", "hex"), ["list", "string"])).toBe(UNKNOWN);
  });

  it("numbers as int, float and decimal string, all as JS numbers", () => {
    expect(decodeMsgpack(encode(7), "number")).toBe(7);
    expect(decodeMsgpack(encode(-300000), "number")).toBe(-300000);
    expect(decodeMsgpack(Buffer.from("cb3ff8000000000000", "hex"), "number")).toBe(1.5);
    expect(decodeMsgpack(Buffer.from("ca3fc00000", "hex"), "number")).toBe(1.5);
    expect(decodeMsgpack(encode("0.1"), "number")).toBe(0.1);
    expect(decodeMsgpack(encode("1e3"), "number")).toBe(1000);
    expect(decodeMsgpack(encode("9007199254740992.0"), "number")).toBe(2 ** 53);
    expect(decodeMsgpack(encode("1e+30"), "number")).toBe(1e30);
    // uint64 / int64 encodings that still fit exactly.
    expect(decodeMsgpack(Buffer.from("cf0000000000000005", "hex"), "number")).toBe(5);
    expect(decodeMsgpack(Buffer.from("d3fffffffffffffffb", "hex"), "number")).toBe(-5);
  });

  it("refuses a number a float64 cannot hold exactly, naming it and its path", () => {
    const type: TfType = ["object", { n: "number" }];
    expect(() => decodeMsgpack(encode({ n: "12345678901234567891" }), type)).toThrow(/^n: the number 12345678901234567891 cannot be held exactly/);
    expect(() => decodeMsgpack(Buffer.from("81a16ecf7fffffffffffffff", "hex"), type)).toThrow(/n: the number 9223372036854775807 cannot be held exactly/);
    expect(() => decodeMsgpack(encode({ n: "9007199254740993" }), type)).toThrow(/n: the number 9007199254740993 cannot be held exactly/);
    expect(() => decodeMsgpack(encode({ n: "abc" }), type)).toThrow(/^n: expected a number, got a string of 3 characters that is not a decimal number$/);
  });

  it("an object's missing attributes are null; an attribute the type lacks is an error", () => {
    const type: TfType = ["object", { a: "string", nested: ["object", { b: "number", c: "bool" }] }];
    expect(decodeMsgpack(encode({ nested: { b: 1 } }), type)).toEqual({ a: null, nested: { b: 1, c: null } });
    expect(() => decodeMsgpack(encode({ z: 1 }), type)).toThrow(/attribute "z" is not in the type/);
  });

  it("a wrong kind of value names the path and never shows a string's text", () => {
    const type: TfType = ["object", { list: ["list", ["object", { secret: "number" }]] }];
    let error: unknown;
    try {
      decodeMsgpack(encode({ list: [{ secret: "hunter2-not-a-number" }] }), type);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TfCodecError);
    expect((error as TfCodecError).path).toEqual(["list", 0, "secret"]);
    expect((error as Error).message).toMatch(/^list\[0\]\.secret: /);
    expect((error as Error).message).not.toContain("hunter2");
  });

  it("dynamic values arrive as [type JSON bytes, value]", () => {
    const bytes = encode([Buffer.from('["list","number"]'), [1, "2"]]);
    expect(decodeMsgpack(bytes, "dynamic")).toEqual([1, 2]);
    expect(decodeMsgpack(encode(null), "dynamic")).toBeNull();
  });

  it("a JSON DynamicValue, and an empty one as null", () => {
    const type: TfType = ["object", { a: "string", n: "number", s: ["set", "string"], d: "dynamic" }];
    const json = Buffer.from(JSON.stringify({ a: "x", n: "2.5", s: ["p"], d: { value: { k: 1 }, type: ["object", { k: "number" }] } }));
    expect(decodeDynamicValue({ json }, type)).toEqual({ a: "x", n: 2.5, s: ["p"], d: { k: 1 } });
    expect(decodeDynamicValue({ msgpack: Buffer.alloc(0), json: Buffer.alloc(0) }, type)).toBeNull();
    expect(decodeDynamicValue(undefined, type)).toBeNull();
  });

  it("JSON with an attribute the schema dropped, when asked to ignore it", () => {
    const type: TfType = ["object", { a: "string" }];
    expect(() => decodeJson({ a: "x", old: 1 }, type)).toThrow(/attribute "old"/);
    expect(decodeJson({ a: "x", old: 1 }, type, { ignoreUndefinedAttributes: true })).toEqual({ a: "x" });
  });
});

describe("encoding what Terraform reads", () => {
  it("unknown is fixext1 type 0 with one zero byte, as terraform-plugin-go writes it", () => {
    expect(hex(encodeMsgpack(UNKNOWN, "string"))).toBe("d40000");
  });

  it("null is nil", () => {
    expect(hex(encodeMsgpack(null, ["object", { a: "string" }]))).toBe("c0");
  });

  it("integral numbers as msgpack ints, exact binary fractions as float64, beyond int64 as a decimal string", () => {
    expect(hex(encodeMsgpack(5, "number"))).toBe("05");
    expect(hex(encodeMsgpack(-1, "number"))).toBe("ff");
    expect(hex(encodeMsgpack(70000, "number"))).toBe("ce00011170");
    expect(hex(encodeMsgpack(1.5, "number"))).toBe("cb3ff8000000000000");
    expect(hex(encodeMsgpack(2 ** 60, "number"))).toBe("cf1000000000000000");
    expect(decodeMsgpack(encodeMsgpack(1e30, "number"), "number")).toBe(1e30);
    expect(encodeMsgpack(1e30, "number")[0]! >> 5).toBe(0b101); // fixstr
    expect(hex(encodeMsgpack(-0.25, "number"))).toBe("cbbfd0000000000000");
  });

  it("a fraction the float64 only approximates as its decimal string, as terraform-plugin-go echoes a config's 0.1", () => {
    expect(decodeMsgpackRaw(encodeMsgpack(0.1, "number"))).toBe("0.1");
    expect(decodeMsgpackRaw(encodeMsgpack(-2.675, "number"))).toBe("-2.675");
    expect(decodeMsgpackRaw(encodeMsgpack(1e-7, "number"))).toBe("1e-7");
    expect(decodeMsgpackRaw(encodeMsgpack(5e-324, "number"))).toBe("5e-324");
    for (const n of [0.1, -2.675, 1e-7, 5e-324, 123.456, 2 ** -30]) expect(decodeMsgpack(encodeMsgpack(n, "number"), "number")).toBe(n);
  });

  it("every attribute of an object, null where the value has none, nested too", () => {
    const type: TfType = ["object", { a: "string", b: ["object", { c: "number", d: "bool" }], e: ["list", "string"] }];
    const bytes = encodeMsgpack({ b: { c: 1 } }, type);
    expect(decodeMsgpackRaw(bytes)).toEqual({ a: null, b: { c: 1, d: null }, e: null });
  });

  it("refuses an attribute the schema does not have, and a wrong kind of value, naming the path", () => {
    expect(() => encodeMsgpack({ a: "x", extra: 1 }, ["object", { a: "string" }])).toThrow(/attribute "extra" is not in the schema/);
    expect(() => encodeMsgpack({ a: [1, "x"] }, ["object", { a: ["list", "number"] }])).toThrow(/^a\[1\]: expected a number/);
  });

  it("a dynamic value as [type JSON, value]", () => {
    const raw = decodeMsgpackRaw(encodeMsgpack({ k: 1 }, "dynamic")) as [Uint8Array, unknown];
    expect(Buffer.from(raw[0]).toString()).toBe('["object",{"k":"number"}]');
    expect(raw[1]).toEqual({ k: 1 });
  });

  it("encodeDynamicValue is msgpack; typeJson is the schema's type bytes", () => {
    expect(hex(encodeDynamicValue("x", "string").msgpack)).toBe("a178");
    expect(typeJson(["map", ["list", "string"]]).toString()).toBe('["map",["list","string"]]');
  });

  it("formatPath writes a path as HCL does", () => {
    expect(formatPath(["a", 0, "b", "x y"])).toBe('a[0].b["x y"]');
  });
});

function decodeMsgpackRaw(bytes: Uint8Array): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require("@msgpack/msgpack") as typeof import("@msgpack/msgpack")).decode(bytes);
}
