#!/usr/bin/python3
"""Published answers of a privacy-gateway workload as pandas DataFrames.

Two ways, one row per answer coordinate in both (docs/answers-api.md):

  from_api(...)    the gateway's answers API (GET /v1/answers/{workload}): rows come self-contained, pages are
                   followed through their next links.
  from_topic(...)  the answers topic itself, with the Confluent Python client: Avro WindowAnswer records in the
                   Confluent wire format (magic byte 0, 4-byte schema id, Avro body), their schemas from the registry's
                   Confluent-compatible API (Apicurio: .../apis/ccompat/v7); here the parallel arrays are zipped.

Needs Debian's python3-pandas, python3-requests, python3-confluent-kafka and python3-avro (run it with /usr/bin/python3).

  /usr/bin/python3 answers_dataframe.py --api http://127.0.0.1:8082/ --workload screen-usage \
      [--bootstrap 127.0.0.1:9092 --registry http://127.0.0.1:8081/apis/ccompat/v7 --topic pgw.answers]
"""
import argparse
import io
import sys
import uuid
from urllib.parse import urljoin

import avro.io
import avro.schema
import pandas as pd
import requests
from confluent_kafka import Consumer, TopicPartition
from confluent_kafka.schema_registry import SchemaRegistryClient


def from_api(api, workload, start=None, end=None, limit=1000):
    """Every row of the workload's answers whose window starts in [start, end), following the next links."""
    url = urljoin(api, "v1/answers/" + workload)
    params = {"limit": limit, "format": "json"}
    if start is not None:
        params["from"] = start
    if end is not None:
        params["to"] = end
    rows = []
    while url:
        r = requests.get(url, params=params, timeout=30)
        if r.status_code != 200:
            raise RuntimeError("%s: %s %s" % (url, r.status_code, r.text.strip()))
        page = r.json()
        rows.extend(page["rows"])
        url = urljoin(url, page["next"]) if page["next"] else None
        params = None  # the next link carries the query and the cursor
    df = pd.DataFrame(rows)
    if not df.empty:
        df["windowStart"] = pd.to_datetime(df["windowStart"], utc=True)
        df["windowEnd"] = pd.to_datetime(df["windowEnd"], utc=True)
    return df


class WireFormatDecoder:
    """Confluent wire format -> dict, writer schemas fetched by id from a Confluent-API registry (cached)."""

    def __init__(self, registry_url):
        self.registry = SchemaRegistryClient({"url": registry_url})
        self.readers = {}

    def decode(self, value):
        if value is None or len(value) < 5 or value[0] != 0:
            raise ValueError("not a Confluent wire-format value")
        schema_id = int.from_bytes(value[1:5], "big")
        reader = self.readers.get(schema_id)
        if reader is None:
            schema = avro.schema.parse(self.registry.get_schema(schema_id).schema_str)
            reader = self.readers[schema_id] = avro.io.DatumReader(schema)
        return reader.read(avro.io.BinaryDecoder(io.BytesIO(value[5:])))


def rows_of(a):
    """One dict per coordinate of a WindowAnswer record: what the API serves, zipped here by hand."""
    cost = a.get("cost") or {"kind": "pure", "epsilon": a["epsilon"], "delta": a["delta"], "rho": None}
    amp = a.get("amplified") or {}
    common = {
        "workload": a["workloadId"], "version": a["workloadVersion"], "mode": a["mode"], "family": a.get("family"),
        "horizon": a.get("horizon"), "windowStart": a["windowStart"], "windowEnd": a["windowEnd"],
        "confidence": a["confidence"], "n": a["n"], "epsilon": a["epsilon"], "delta": a["delta"],
        "mechanism": a["mechanism"], "guaranteeKind": cost["kind"], "amplifiedEpsilon": amp.get("epsilon"),
        "amplifiedDelta": amp.get("delta"),
    }
    labels = a["labels"]
    if labels:
        coords = zip(labels, a["estimates"], a["lower"], a["upper"])
    else:
        coords = ((i["label"], i["estimate"], i["lower"], i["upper"]) for i in (a.get("items") or []))
    out = [dict(common, index=k, label=l, estimate=e, lower=lo, upper=hi) for k, (l, e, lo, hi) in enumerate(coords)]
    return out or [dict(common, index=None, label=None, estimate=None, lower=None, upper=None)]


def from_topic(bootstrap, registry_url, topic, workload, timeout=30.0):
    """Every answer of the workload on the topic (read to its current end, read_committed) as rows."""
    consumer = Consumer({
        "bootstrap.servers": bootstrap,
        "group.id": "answers-notebook-" + uuid.uuid4().hex,  # the consumer-group prefix of docs/acls.md
        "enable.auto.commit": False,
        "auto.offset.reset": "earliest",
        "isolation.level": "read_committed",
    })
    decoder = WireFormatDecoder(registry_url)
    rows = []
    try:
        partitions = consumer.list_topics(topic, timeout=timeout).topics[topic].partitions
        ends = {}
        for p in partitions:
            low, high = consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=timeout)
            if high > low:
                ends[p] = high
        consumer.assign([TopicPartition(topic, p, 0) for p in ends] or [])
        done = set()
        while len(done) < len(ends):
            msg = consumer.poll(timeout)
            if msg is None:
                raise TimeoutError("no record within %.0f s; read %d of %d partitions" % (timeout, len(done), len(ends)))
            if msg.error():
                raise RuntimeError(str(msg.error()))
            if msg.key() is not None and msg.key().decode() == workload and msg.value() is not None:
                rows.extend(rows_of(decoder.decode(msg.value())))
            if msg.offset() + 1 >= ends[msg.partition()]:
                done.add(msg.partition())
    finally:
        consumer.close()
    df = pd.DataFrame(rows)
    if not df.empty:
        df["windowStart"] = pd.to_datetime(df["windowStart"], utc=True)
        df["windowEnd"] = pd.to_datetime(df["windowEnd"], utc=True)
        df = df.sort_values(["windowStart", "horizon", "version", "index"], na_position="first", kind="stable")
    return df.reset_index(drop=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--api", required=True, help="base URL of the answers API, e.g. http://127.0.0.1:8082/")
    ap.add_argument("--workload", required=True)
    ap.add_argument("--from", dest="start", help="ISO-8601 instant or epoch ms (inclusive window start)")
    ap.add_argument("--to", dest="end", help="ISO-8601 instant or epoch ms (exclusive)")
    ap.add_argument("--limit", type=int, default=1000, help="rows per page")
    ap.add_argument("--bootstrap", help="Kafka bootstrap servers: also read the answers topic")
    ap.add_argument("--registry", help="Confluent-API schema registry URL (Apicurio: .../apis/ccompat/v7)")
    ap.add_argument("--topic", default="pgw.answers")
    args = ap.parse_args()

    api = from_api(args.api, args.workload, args.start, args.end, args.limit)
    print("api rows: %d, windows: %d" % (len(api), api["windowStart"].nunique() if len(api) else 0))
    if len(api):
        with pd.option_context("display.width", 200, "display.max_columns", 8):
            print(api[["windowStart", "label", "estimate", "lower", "upper", "epsilon", "n"]].head(10).to_string())
    if args.bootstrap:
        if not args.registry:
            sys.exit("--registry is required with --bootstrap")
        topic = from_topic(args.bootstrap, args.registry, args.topic, args.workload)
        print("topic rows: %d" % len(topic))
        if args.start is None and args.end is None:
            # the API's rows over the whole history are the topic's, in the same order
            cols = ["label", "estimate", "lower", "upper", "n", "epsilon"]
            same = len(api) == len(topic) and api[cols].reset_index(drop=True).equals(topic[cols])
            print("api and topic agree: %s" % same)
            if not same:
                sys.exit(1)


if __name__ == "__main__":
    main()
