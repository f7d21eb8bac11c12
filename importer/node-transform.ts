// The per-node work of an import, run by scanExtract inside each decoder thread (ScanPlan.nodeTransform), so
// both cores share it: toilet rows go straight to the database thread; the main thread gets what it needs to
// finish the import (positions of toilets, place candidates, entrances, skip counts). After the last block the
// same threads, their caches warm, make the records of toilet ways and relations (work()).
import type { MessagePort } from 'node:worker_threads';
import type { NodeTransform, SelectedNodes, Tags } from './pbf/index.js';
import { classify, lookupTags, type SkipReason } from './mapping/index.js';
import { classifyPlace, placeCandidate, type PlaceCandidate } from './places.js';
import { ToiletRowsBuilder } from './toilet-rows.js';
import { toiletRecord } from './toilet-record.js';
import { nodeTags, nodeTagsJson } from './tags-json.js';
import { RowSink } from './row-sink.js';
import { middleOnly, wayNote } from './element-class.js';
import { countryAt } from '../src/geo/where.js';

export interface NodeTransformSetup {
  /** Extract timestamp, epoch ms (check dates after it are rejected). */
  extractDate: number;
  /** This decoder's connection to the database thread (DatabaseWriter.connectDecoder). */
  port: MessagePort;
  state: SharedArrayBuffer;
}

/** What the nodes of one block contribute to the import besides their rows. */
export interface NodeFindings {
  /** lon, lat of each standalone toilet, as written. */
  toilets: Float64Array;
  /** Host toilets, by id and node position (lon, lat pairs). */
  hostIds: string[];
  hosts: Float64Array;
  places: PlaceCandidate[];
  /** id, lon, lat of each node tagged entrance or door. */
  entrances: Float64Array;
  /** Toilet-tagged nodes that make no record, by reason. */
  skipped: Partial<Record<SkipReason, number>>;
}

/** A toilet way or relation, positioned by the main thread; its tags as JSON (text crosses threads cheaply). */
export interface PositionedToilet {
  id: string;
  lat: number;
  lon: number;
  tags: string;
  host: boolean;
  timestamp: number | null;
}

/** Follow-up work: mark what was sent so far (DatabaseWriter.decodersMarked), or make these toilets' rows. */
export type NodeWork = { kind: 'mark' } | { kind: 'toilets'; toilets: PositionedToilet[] };

/** The ScanPlan.nodeTransform entry point (see pbf/types.ts NodeTransformModule). */
export function createNodeTransform(setup: NodeTransformSetup): NodeTransform {
  const sink = new RowSink(setup.port, setup.state);
  // one builder for every batch of this thread: its arrays are reused (see ToiletRowsBuilder)
  const rows = new ToiletRowsBuilder();
  const send = () => {
    if (rows.count === 0) return;
    const { rows: packed, transfer } = rows.take();
    sink.send(packed, transfer);
  };
  return {
    transform(nodes: SelectedNodes) {
      const toilets: number[] = [];
      const hostIds: string[] = [];
      const hosts: number[] = [];
      const places: PlaceCandidate[] = [];
      const entrances: number[] = [];
      const skipped: NodeFindings['skipped'] = {};
      const quoted = new Array<string | undefined>(nodes.stringCount);
      for (let i = 0; i < nodes.length; i++) {
        const read = nodeTags(nodes, i);
        const tags = read.tags;
        const id = nodes.id(i);
        const lat = nodes.lat(i);
        const lon = nodes.lon(i);
        if (tags.entrance !== undefined || tags.door !== undefined) entrances.push(id, lon, lat);
        const c = classify(tags);
        if (c.kind !== 'skip') {
          const json = nodeTagsJson(nodes, i, read, quoted);
          const record = toiletRecord(`n${id}`, lat, lon, tags, c.kind === 'host_toilet', nodes.timestamp(i), setup.extractDate, json);
          rows.add(record);
          if (record.host) {
            hostIds.push(record.id);
            hosts.push(lon, lat);
          } else {
            toilets.push(record.lon, record.lat);
          }
        } else if (c.reason !== 'not_a_toilet') {
          skipped[c.reason] = (skipped[c.reason] ?? 0) + 1;
        }
        const place = classifyPlace(tags, false);
        if (place) {
          // a node place stays where it is; this thread's cells are warm
          places.push(placeCandidate(`n${id}`, place, tags, lat, lon, countryAt(lat, lon)));
        }
      }
      send();
      const findings: NodeFindings = {
        toilets: new Float64Array(toilets),
        hostIds,
        hosts: new Float64Array(hosts),
        places,
        entrances: new Float64Array(entrances),
        skipped,
      };
      return { result: findings, transfer: [findings.toilets.buffer, findings.hosts.buffer, findings.entrances.buffer] as ArrayBuffer[] };
    },
    noteWay: wayNote,
    middleOnly,
    work(input: unknown) {
      const work = input as NodeWork;
      if (work.kind === 'mark') sink.mark();
      else {
        for (const t of work.toilets) {
          rows.add(toiletRecord(t.id, t.lat, t.lon, lookupTags(JSON.parse(t.tags) as Tags), t.host, t.timestamp, setup.extractDate, t.tags));
        }
        send();
      }
      return { result: null };
    },
    close() {
      sink.end();
    },
  };
}
