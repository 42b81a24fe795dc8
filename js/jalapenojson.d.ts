// jalapenojson.d.ts — types of the ES module jalapenojson.js.
// docs/javascript.md describes the value mapping and the options.

/** A column type: its letter, or a nested table's schema. */
export type ColumnType = 'i' | 'f' | 's' | 'd' | 't' | 'l' | 'b' | 'x' | Schema;

/** A table's columns and their types, as a document's header has them. */
export interface Schema {
  readonly columns: readonly string[];
  readonly types: readonly ColumnType[];
}

/** A timestamp with its exact fraction and written zone
 * (`timestamps: 'object'`); encode() takes it back. */
export interface Timestamp {
  /** The instant, to the millisecond. */
  date: Date;
  /** The fraction of the second in nanoseconds, 0..999999999 (exact). */
  nanos: number;
  /** The zone written, in minutes east of UTC (+05:30 is 330, Z is 0). */
  zone: number;
  /** Fraction digits written, 0..9. */
  digits: number;
}

export interface ReadOptions {
  /** Integers: numbers where safe and BigInt beyond ±(2^53 - 1) ('auto',
   * the default), or BigInt always ('always'). */
  bigint?: 'auto' | 'always';
  /** Dates: "YYYY-MM-DD" strings (default) or Dates at midnight UTC. */
  dates?: 'string' | 'date';
  /** Timestamps: their text with its zone (default), a Date (to the
   * millisecond, zone dropped), or a Timestamp object. */
  timestamps?: 'string' | 'date' | 'object';
  /** Nesting allowed inside one value (default 64). */
  maxDepth?: number;
  /** Gzip input: the most decompressed bytes (default 1 GiB; 0: none). */
  maxSize?: number;
}

/** A value as read: by column type and options. */
export type Value =
  | null
  | number
  | bigint
  | string
  | boolean
  | Date
  | Timestamp
  | Uint8Array
  | Row[]
  | View;

export type Row = Record<string, Value>;

/** What a document can be given as; gzip bytes are decompressed first
 * (synchronously in Node; in browsers use `await gunzip(bytes)`). */
export type Input = string | Uint8Array | ArrayBuffer | ArrayBufferView;

/** Every failure on a document or a value. */
export class JJError extends Error {
  name: 'JJError';
  /** The C library's jj_code_name: "syntax", "date", "range", ...;
   * "internal" when the WebAssembly instance failed; "out of memory" when
   * its memory (2 GiB at most) is full: the message says how many views
   * are open, and closing views makes room. */
  code: string;
  /** 1-based row of the top-level table; 0 when not in a row. */
  row: number;
  /** 0-based column of the top-level table; -1 when none. */
  column: number;
  /** Byte offset in the document; -1 when none. */
  offset: number;
}

/** A lazy view of a document: values are read and checked when asked for. */
export interface View extends Iterable<Row> {
  readonly columns: readonly string[];
  readonly types: readonly ColumnType[];
  /** Number of rows (the rows' structure is scanned once). */
  readonly length: number;
  /** Row i (0-based), or undefined when there is none. */
  row(i: number): Row | undefined;
  /** Every value of a column (by name or index): a Float64Array for a float
   * column without nulls, else an array with null for nulls. */
  column(name: string | number): Float64Array | Value[];
  [Symbol.iterator](): IterableIterator<Row>;
  /** Free the document's copy now (and close nested views and iterations
   * made from this view). */
  close(): void;
  [Symbol.dispose](): void;
}

/** Load the WebAssembly module: needed before first use in browsers; Node
 * loads it on first use.  `wasm`: a URL, a path (Node), bytes, a Response
 * or a WebAssembly.Module (default: dist/jalapenojson.wasm beside the
 * module). */
export function init(options?: { wasm?: string | URL | BufferSource | Response | WebAssembly.Module }): Promise<void>;

/** Every row as an object keyed by column name (every value checked). */
export function decode(input: Input, options?: ReadOptions): Row[];
/** decode() of a document given as a string. */
export function decodeText(text: string, options?: ReadOptions): Row[];
/** A lazy view of the document. */
export function view(input: Input, options?: ReadOptions): View;

/** The schema of encode(), with optional free-form metadata for the
 * header's "meta" (written with JSON.stringify). */
export interface WriteSchema extends Schema {
  meta?: unknown;
}
/** Types for some columns, the others inferred: a letter, or a nested
 * table's own partial types, by column name. */
export interface PartialTypes {
  [column: string]: 'i' | 'f' | 's' | 'd' | 't' | 'l' | 'b' | 'x' | PartialTypes;
}

/** A partial schema for encode(): the types of some columns (the others
 * inferred from every row), and the order of the top-level columns (which
 * also lets rows be arrays in that order). */
export interface PartialSchema {
  types?: PartialTypes;
  columns?: readonly string[];
}

/** A value encode() infers a type for: null; a boolean; a number (a safe
 * integer is an integer, any other a float); a bigint (an integer in the
 * int64 range, else a number's text); a string (a date or timestamp when
 * spelled as one); a Date (a timestamp in UTC; a date in a column typed
 * 'd'); bytes; an array of plain objects (a nested table); any other array
 * or plain object (its JSON text); undefined (the key is absent). */
export type InValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | Date
  | Timestamp
  | Uint8Array
  | ArrayBuffer
  | ArrayBufferView
  | InRow[]
  | View
  | readonly unknown[]
  | { [key: string]: unknown }
  | undefined;

export type InRow = { [column: string]: InValue };

/** Options of encode() with types inferred. */
export interface BuildOptions {
  /** Each decision the inference made (a mixed column becomes text, ints
   * and floats make floats, ...), a sentence as the command-line
   * converter's summary gives it; told after the rows are read.  Without
   * it nothing is told or printed. */
  onNote?: (message: string) => void;
  /** A value that does not fit schema.types becomes null (told to onNote)
   * instead of an error. */
  badToNull?: boolean;
}

/** Rows as a document, exactly as the C library writes it.  With a full
 * schema (types an array): objects keyed by column name, or arrays in
 * column order (any iterable, a View too), written as typed.  Without a
 * schema, or with a partial one, the types are inferred from every row as
 * the converter infers them from the rows' JSON (sparse keys add columns,
 * arrays of objects are nested tables, mixed columns are text). */
export function encode(rows: Iterable<Row | Value[]>, schema: WriteSchema): Uint8Array;
export function encode(rows: Iterable<InRow | InValue[]>, schema?: PartialSchema | null, options?: BuildOptions): Uint8Array;
/** encode() as a string. */
export function encodeText(rows: Iterable<Row | Value[]>, schema: WriteSchema): string;
export function encodeText(rows: Iterable<InRow | InValue[]>, schema?: PartialSchema | null, options?: BuildOptions): string;

/** Options of fromJSON(). */
export interface ConvertOptions extends BuildOptions {
  /** Types for some columns: "id:i,joined:d,items:{qty:f}" (as the
   * command line's --schema) or as PartialSchema.types. */
  schema?: string | PartialTypes;
  /** The input's name, to begin error messages ("in.json: row 3 ..."). */
  name?: string;
  /** Dates in another spelling than ISO 8601: a strftime pattern
   * ('%m/%d/%Y') or 1 to 16 of them, instead of the spellings detected;
   * 'iso' for ISO 8601 alone (docs/convert.md). */
  dateFormat?: string | string[];
  /** The same for timestamps ('%Y/%m/%d %H:%M'; with %z a t column). */
  timestampFormat?: string | string[];
}

/** Options of fromCSV(). */
export interface CSVOptions extends ConvertOptions {
  /** The delimiter (one ASCII character); detected among , tab ; | by
   * default. */
  delimiter?: string;
  /** An unquoted field equal to it (or to any of them) is null (default:
   * the empty field; give '' among others to keep it); or such texts by
   * column name, '*' for every column: {rate: ['NA', '.'], '*': ''}. */
  null?: string | string[] | { [column: string]: string | string[] };
  /** The thousands separator read in numbers ('1,234' is 1234 in a column
   * of numbers); default none. */
  thousands?: string;
  /** false: no header record; every record is a row, the columns named
   * column_1, column_2, ... (default true). */
  header?: boolean;
  /** Fields true and false are booleans (default: text). */
  booleans?: boolean;
  /** An unquoted empty field is the empty text, not null. */
  emptyIsText?: boolean;
  /** A row with fewer fields than the header gets nulls for the missing
   * last ones (a note says how many). */
  nullPadding?: boolean;
  /** A row that does not fit: 'fail' (default) throws its error, 'skip'
   * sets it aside, 'null' makes a value that does not fit null and sets
   * aside a row with a wrong field count. */
  onError?: 'fail' | 'skip' | 'null';
  /** Called after a conversion with each row set aside, in input order. */
  onReject?: (reject: CSVReject) => void;
}

/** A CSV row set aside by onError. */
export interface CSVReject {
  /** The data row, from 1, as in messages. */
  row: number;
  /** Its byte offset in the input, or null. */
  byte: number | null;
  /** The column whose value failed, or null (the row's field count). */
  column: string | null;
  /** The error's code ("type", "row", ...). */
  code: string;
  /** The message the conversion would have thrown. */
  message: string;
}

/** JSON (one array of objects, or objects one after another: NDJSON) as a
 * document, by the C converter (the command line's `convert`). */
export function fromJSON(input: string | Uint8Array | ArrayBuffer | ArrayBufferView, options?: ConvertOptions): Uint8Array;
/** fromJSON() as a string. */
export function fromJSONText(input: string | Uint8Array | ArrayBuffer | ArrayBufferView, options?: ConvertOptions): string;
/** CSV (RFC 4180, a header row unless header: false) as a document, by
 * the C converter. */
export function fromCSV(input: string | Uint8Array | ArrayBuffer | ArrayBufferView, options?: CSVOptions): Uint8Array;
/** fromCSV() as a string. */
export function fromCSVText(input: string | Uint8Array | ArrayBuffer | ArrayBufferView, options?: CSVOptions): string;

/** Decompress gzip bytes (Node's zlib, or DecompressionStream), at most
 * `maxSize` bytes of output (default 1 GiB; 0: no limit). */
export function gunzip(bytes: Uint8Array, options?: { maxSize?: number }): Promise<Uint8Array>;

/** For the module's own tests; not part of the API. */
export function _internals(): unknown;
