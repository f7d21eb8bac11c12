// osmformat.proto PrimitiveBlock{stringtable=1, primitivegroup=2, granularity=17, date_granularity=18,
// lat_offset=19, lon_offset=20} and PrimitiveGroup{nodes=1, dense=2, ways=3, relations=4, changesets=5}.
// Decoding is selective: packed fields are located first and only decoded for elements that are selected
// (by tags) or wanted (by id), so untagged nodes cost an id delta and one keys_vals byte.
import { PbfReader } from 'pbf';
import type { BatchBuilder } from './block-batch.js';
import type { SortedIds } from './sorted-ids.js';
import { StringTable } from './string-table.js';
import { BlockSelector, type CompiledSelector } from './tag-selector.js';

/**
 * Element kinds as bits, so a block's contents and its decoded parts are small masks. A block with nodes holds
 * two parts: NODE, its selected nodes (which need no context), and COORDS, the coordinates of the nodes asked
 * for (which need the ids), so the selected nodes can be delivered before the ids are known.
 */
export const NODE = 1;
export const WAY = 2;
export const RELATION = 4;
export const COORDS = 8;

export interface DecodeContext {
  nodes: CompiledSelector;
  ways: CompiledSelector;
  relations: CompiledSelector;
  /** Ways to deliver whatever their tags (members of selected relations); needed to decode ways. */
  wantedWays: SortedIds | null;
  /** Nodes whose coordinates are requested; needed to decode COORDS. */
  neededNodes: SortedIds | null;
}

const GROUP_KINDS: Record<number, number> = { 1: NODE | COORDS, 2: NODE | COORDS, 3: WAY, 4: RELATION };
const LENGTH_DELIMITED = 2;

export class PrimitiveBlock {
  /** Which kinds of element the block holds. */
  readonly kinds: number;
  private readonly table: StringTable;
  private readonly groups: { start: number; end: number }[] = [];
  private granularity = 100;
  private dateGranularity = 1000;
  private latOffset = 0;
  private lonOffset = 0;
  /** One reader walks messages; the others are cursors into packed columns of the current element. */
  private readonly reader: PbfReader;
  private readonly cursors: PbfReader[];

  constructor(private readonly buf: Uint8Array) {
    const r = (this.reader = new PbfReader(buf));
    this.cursors = Array.from({ length: 5 }, () => new PbfReader(buf));
    let tableStart = 0;
    let tableEnd = 0;
    let field: number;
    while ((field = r.nextField())) {
      if (field === 1) {
        tableEnd = contentEnd(r, buf.length);
        tableStart = r.pos;
        r.pos = tableEnd;
      } else if (field === 2) {
        const end = contentEnd(r, buf.length);
        this.groups.push({ start: r.pos, end });
        r.pos = end;
      } else if (field === 17) this.granularity = r.readVarint(true);
      else if (field === 18) this.dateGranularity = r.readVarint(true);
      else if (field === 19) this.latOffset = r.readVarint(true);
      else if (field === 20) this.lonOffset = r.readVarint(true);
    }
    if (r.pos !== buf.length) throw new Error('malformed primitive block');
    this.table = new StringTable(buf, tableStart, tableEnd);
    let kinds = 0;
    for (const group of this.groups) {
      r.pos = group.start;
      while ((field = r.nextField(group.end))) kinds |= GROUP_KINDS[field] ?? 0;
      if (r.pos !== group.end) throw new Error('malformed primitive group');
    }
    this.kinds = kinds;
  }

  get strings(): StringTable {
    return this.table;
  }

  /**
   * Decodes the parts of the given kinds into `out`: counts all elements, collects selected and wanted ones
   * and the coordinates asked for. Nodes are counted with NODE.
   */
  decode(kinds: number, context: DecodeContext, out: BatchBuilder): void {
    const r = this.reader;
    const nodeSelector = kinds & NODE ? new BlockSelector(context.nodes, this.table) : null;
    const neededNodes = kinds & COORDS ? context.neededNodes! : null;
    const waySelector = kinds & WAY ? new BlockSelector(context.ways, this.table) : null;
    const relationSelector = kinds & RELATION ? new BlockSelector(context.relations, this.table) : null;
    for (const group of this.groups) {
      r.pos = group.start;
      let field: number;
      while ((field = r.nextField(group.end))) {
        const kind = GROUP_KINDS[field];
        if (kind === undefined || (kind & kinds) === 0) continue;
        const end = contentEnd(r, group.end);
        if (field === 2) this.decodeDenseNodes(end, nodeSelector, neededNodes, out);
        else if (field === 1) this.decodeNode(end, nodeSelector, neededNodes, out);
        else if (field === 3) this.decodeWay(end, waySelector!, context.wantedWays!, out);
        else this.decodeRelation(end, relationSelector!, out);
        r.pos = end;
      }
    }
  }

  /**
   * DenseNodes{id=1, denseinfo=5 (DenseInfo{timestamp=2}), lat=8, lon=9, keys_vals=10}, all delta-coded but
   * keys_vals. A null selector skips the selected nodes (NODE), a null `needed` the coordinates (COORDS).
   */
  private decodeDenseNodes(end: number, selector: BlockSelector | null, needed: SortedIds | null, out: BatchBuilder): void {
    const r = this.reader;
    const [ids, lats, lons, keysVals, timestamps] = this.cursors;
    let idEnd = -1;
    let latEnd = -1;
    let lonEnd = -1;
    let keysValsEnd = -1;
    let timestampEnd = -1;
    let field: number;
    while ((field = r.nextField(end))) {
      if (field === 1) idEnd = locate(r, end, ids);
      else if (field === 8) latEnd = locate(r, end, lats);
      else if (field === 9) lonEnd = locate(r, end, lons);
      else if (field === 10) keysValsEnd = locate(r, end, keysVals);
      else if (field === 5) {
        const infoEnd = contentEnd(r, end);
        while ((field = r.nextField(infoEnd))) if (field === 2) timestampEnd = locate(r, infoEnd, timestamps);
        r.pos = infoEnd;
      }
    }
    if (idEnd < 0) return;
    const count = countVarints(this.buf, ids.pos, idEnd);
    if (selector) out.counts.nodes += count;
    // Every node ends its keys_vals run with a 0, so one byte per node means no node has tags.
    const lookAtTags = selector !== null && keysValsEnd >= 0 && keysValsEnd - keysVals.pos > count && !selector.empty;
    if (!lookAtTags && (needed === null || needed.size === 0)) return;
    if (latEnd < 0 || lonEnd < 0) throw new Error('dense nodes without coordinates');
    const hasTimestamps = timestampEnd >= 0;

    let id = 0;
    let lat = 0;
    let lon = 0;
    let timestamp = 0;
    let coordinatesRead = 0;
    let timestampsRead = 0;
    // While ids ascend, ids between the last one looked up and the next requested one need no lookup.
    let lookedUp = Infinity;
    let following = -Infinity;
    for (let i = 0; i < count; i++) {
      id += readSigned(ids);
      let selected = false;
      let tagsStart = 0;
      if (lookAtTags) {
        tagsStart = keysVals.pos;
        if (this.buf[tagsStart] === 0) keysVals.pos++; // untagged: the common case, one byte
        else for (let key = keysVals.readVarint(); key !== 0; key = keysVals.readVarint()) {
          const value = keysVals.readVarint();
          if (!selected && selector!.matches(key, value)) selected = true;
          if (keysVals.pos > keysValsEnd) throw new Error('keys_vals runs past its field');
        }
      }
      let slot = -1;
      if (needed !== null && (id >= following || id <= lookedUp)) {
        slot = needed.indexOf(id);
        lookedUp = id;
        following = needed.following;
      }
      if (!selected && slot < 0) continue;

      for (; coordinatesRead <= i; coordinatesRead++) {
        lat += readSigned(lats);
        lon += readSigned(lons);
      }
      const latE7 = this.toE7(lat, this.latOffset);
      const lonE7 = this.toE7(lon, this.lonOffset);
      if (slot >= 0) pushCoordinate(out, slot, latE7, lonE7);
      if (!selected) continue;

      if (hasTimestamps) for (; timestampsRead <= i; timestampsRead++) timestamp += readSigned(timestamps);
      const nodes = out.nodes;
      nodes.ids.push(id);
      nodes.lat.push(latE7);
      nodes.lon.push(lonE7);
      nodes.timestamps.push(this.toMillis(hasTimestamps ? timestamp : 0));
      const tagsEnd = keysVals.pos;
      keysVals.pos = tagsStart;
      for (let key = keysVals.readVarint(); key !== 0; key = keysVals.readVarint()) {
        nodes.tags.push(out.string(key), out.string(keysVals.readVarint()));
      }
      keysVals.pos = tagsEnd;
      nodes.tagEnds.push(nodes.tags.length);
    }
    const overrun = lats.pos > latEnd || lons.pos > lonEnd || (lookAtTags && keysVals.pos > keysValsEnd) || (hasTimestamps && timestamps.pos > timestampEnd);
    if (ids.pos !== idEnd || overrun) {
      throw new Error('dense node columns of different lengths');
    }
  }

  /** Node{id=1, keys=2, vals=3, info=4, lat=8, lon=9}; null selector or `needed` as for dense nodes. */
  private decodeNode(end: number, selector: BlockSelector | null, needed: SortedIds | null, out: BatchBuilder): void {
    const r = this.reader;
    const [keys, vals] = this.cursors;
    let id = 0;
    let lat = 0;
    let lon = 0;
    let keysEnd = -1;
    let valsEnd = -1;
    let timestamp = 0;
    let field: number;
    while ((field = r.nextField(end))) {
      if (field === 1) id = readSigned(r);
      else if (field === 2) keysEnd = locate(r, end, keys);
      else if (field === 3) valsEnd = locate(r, end, vals);
      else if (field === 4) timestamp = this.readInfoTimestamp(end);
      else if (field === 8) lat = readSigned(r);
      else if (field === 9) lon = readSigned(r);
    }
    if (selector) out.counts.nodes++;
    const tagsStart = keys.pos;
    const valsStart = vals.pos;
    const selected = selector !== null && this.tagsMatch(selector, keysEnd, valsEnd);
    const slot = needed === null || needed.size === 0 ? -1 : needed.indexOf(id);
    if (!selected && slot < 0) return;
    const latE7 = this.toE7(lat, this.latOffset);
    const lonE7 = this.toE7(lon, this.lonOffset);
    if (slot >= 0) pushCoordinate(out, slot, latE7, lonE7);
    if (!selected) return;
    const nodes = out.nodes;
    nodes.ids.push(id);
    nodes.lat.push(latE7);
    nodes.lon.push(lonE7);
    nodes.timestamps.push(this.toMillis(timestamp));
    this.pushTags(nodes, out, tagsStart, keysEnd, valsStart);
  }

  /** Way{id=1, keys=2, vals=3, info=4, refs=8 (delta)}. */
  private decodeWay(end: number, selector: BlockSelector, wanted: SortedIds, out: BatchBuilder): void {
    const r = this.reader;
    const [keys, vals, refs] = this.cursors;
    let id = 0;
    let keysEnd = -1;
    let valsEnd = -1;
    let refsEnd = -1;
    let timestamp = 0;
    let field: number;
    while ((field = r.nextField(end))) {
      if (field === 1) id = r.readVarint(true);
      else if (field === 2) keysEnd = locate(r, end, keys);
      else if (field === 3) valsEnd = locate(r, end, vals);
      else if (field === 4) timestamp = this.readInfoTimestamp(end);
      else if (field === 8) refsEnd = locate(r, end, refs);
    }
    out.counts.ways++;
    const tagsStart = keys.pos;
    const valsStart = vals.pos;
    if (!this.tagsMatch(selector, keysEnd, valsEnd) && (wanted.size === 0 || wanted.indexOf(id) < 0)) return;
    const ways = out.ways;
    ways.ids.push(id);
    ways.timestamps.push(this.toMillis(timestamp));
    this.pushTags(ways, out, tagsStart, keysEnd, valsStart);
    let ref = 0;
    if (refsEnd >= 0) while (refs.pos < refsEnd) ways.refs.push((ref += readSigned(refs)));
    if (refsEnd >= 0 && refs.pos !== refsEnd) throw new Error('way refs run past their field');
    ways.refEnds.push(ways.refs.length);
  }

  /** Relation{id=1, keys=2, vals=3, info=4, roles_sid=8, memids=9 (delta), types=10}. */
  private decodeRelation(end: number, selector: BlockSelector, out: BatchBuilder): void {
    const r = this.reader;
    const [keys, vals, roles, memberIds, types] = this.cursors;
    let id = 0;
    let keysEnd = -1;
    let valsEnd = -1;
    let rolesEnd = -1;
    let memberIdsEnd = -1;
    let typesEnd = -1;
    let timestamp = 0;
    let field: number;
    while ((field = r.nextField(end))) {
      if (field === 1) id = r.readVarint(true);
      else if (field === 2) keysEnd = locate(r, end, keys);
      else if (field === 3) valsEnd = locate(r, end, vals);
      else if (field === 4) timestamp = this.readInfoTimestamp(end);
      else if (field === 8) rolesEnd = locate(r, end, roles);
      else if (field === 9) memberIdsEnd = locate(r, end, memberIds);
      else if (field === 10) typesEnd = locate(r, end, types);
    }
    out.counts.relations++;
    const tagsStart = keys.pos;
    const valsStart = vals.pos;
    if (!this.tagsMatch(selector, keysEnd, valsEnd)) return;
    const relations = out.relations;
    relations.ids.push(id);
    relations.timestamps.push(this.toMillis(timestamp));
    this.pushTags(relations, out, tagsStart, keysEnd, valsStart);
    let ref = 0;
    if (memberIdsEnd >= 0) {
      while (memberIds.pos < memberIdsEnd) {
        const type = typesEnd >= 0 && types.pos < typesEnd ? types.readVarint() : -1;
        if (type < 0 || type > 2) throw new Error(`relation ${id} has an invalid member type`);
        if (rolesEnd < 0 || roles.pos >= rolesEnd) throw new Error(`relation ${id} has fewer roles than members`);
        relations.memberRefs.push((ref += readSigned(memberIds)));
        relations.memberTypes.push(type);
        relations.memberRoles.push(out.string(roles.readVarint()));
      }
    }
    if ((memberIdsEnd >= 0 && memberIds.pos !== memberIdsEnd) || (typesEnd >= 0 && types.pos !== typesEnd) || (rolesEnd >= 0 && roles.pos !== rolesEnd)) {
      throw new Error(`relation ${id} has member columns of different lengths`);
    }
    relations.memberEnds.push(relations.memberRefs.length);
  }

  /** Whether any key/value pair in the located keys and vals columns matches; leaves the cursors moved. */
  private tagsMatch(selector: BlockSelector, keysEnd: number, valsEnd: number): boolean {
    if (keysEnd < 0 || selector.empty) return false;
    const [keys, vals] = this.cursors;
    if (valsEnd < 0) throw new Error('keys without values');
    while (keys.pos < keysEnd) {
      if (vals.pos >= valsEnd) throw new Error('fewer values than keys');
      if (selector.matches(keys.readVarint(), vals.readVarint())) return true;
    }
    return false;
  }

  private pushTags(columns: { tags: number[]; tagEnds: number[] }, out: BatchBuilder, keysStart: number, keysEnd: number, valsStart: number): void {
    const [keys, vals] = this.cursors;
    if (keysEnd >= 0) {
      keys.pos = keysStart;
      vals.pos = valsStart;
      while (keys.pos < keysEnd) columns.tags.push(out.string(keys.readVarint()), out.string(vals.readVarint()));
    }
    columns.tagEnds.push(columns.tags.length);
  }

  /** Info{timestamp=2} inside the current element; returns the raw timestamp (0 when absent). */
  private readInfoTimestamp(limit: number): number {
    const r = this.reader;
    const end = contentEnd(r, limit);
    let timestamp = 0;
    let field: number;
    while ((field = r.nextField(end))) if (field === 2) timestamp = r.readVarint(true);
    r.pos = end;
    return timestamp;
  }

  /** 1e-9 * (offset + granularity * value) degrees, rounded to 1e-7 degrees. */
  private toE7(value: number, offset: number): number {
    return Math.round((offset + this.granularity * value) / 100);
  }

  /** Epoch ms, NaN for an absent (0) timestamp. */
  private toMillis(timestamp: number): number {
    return timestamp === 0 ? NaN : timestamp * this.dateGranularity;
  }
}

/** For a length-delimited field: returns where it ends (checked against `limit`) and leaves r at its content. */
function contentEnd(r: PbfReader, limit: number): number {
  if (r.type !== LENGTH_DELIMITED) throw new Error(`unexpected wire type ${r.type}`);
  const end = r.readVarint() + r.pos;
  if (end > limit) throw new Error('field runs past its message');
  return end;
}

/** Points `cursor` at the content of the current packed field, moves r past it, and returns its end. */
function locate(r: PbfReader, limit: number, cursor: PbfReader): number {
  const end = contentEnd(r, limit);
  cursor.pos = r.pos;
  r.pos = end;
  return end;
}

/**
 * PbfReader.readSVarint, without its `% 2`: on values past 2^31 (coordinate deltas between distant nodes)
 * that is a slow floating-point modulo, and these reads are the hottest code of a scan.
 */
function readSigned(reader: PbfReader): number {
  const zigzag = reader.readVarint();
  return zigzag & 1 ? -(zigzag + 1) / 2 : zigzag / 2;
}

/** Number of varints in buf[start, end): one per byte without the continuation bit. */
function countVarints(buf: Uint8Array, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) if (buf[i] < 0x80) count++;
  return count;
}

function pushCoordinate(out: BatchBuilder, slot: number, latE7: number, lonE7: number): void {
  out.coordinates.slots.push(slot);
  out.coordinates.lat.push(latE7);
  out.coordinates.lon.push(lonE7);
}
