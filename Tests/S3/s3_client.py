#!/usr/bin/env python3
"""boto3 (PyPI, pinned in scripts/install-deps.sh): the storage tests' independent S3 client,
which seeds buckets and reads back what cropjob's S3 store wrote. Credentials come from the
environment the test gives it; results are printed as JSON.

  s3_client.py ENDPOINT make-bucket BUCKET
  s3_client.py ENDPOINT seed BUCKET PREFIX COUNT SEED   objects PREFIX00000.bin ... (1-3000 bytes each)
  s3_client.py ENDPOINT put BUCKET KEY FILE
  s3_client.py ENDPOINT put-tree BUCKET PREFIX FOLDER   every file below FOLDER at PREFIX + its path
  s3_client.py ENDPOINT delete BUCKET KEY
  s3_client.py ENDPOINT put-many BUCKET PREFIX COUNT FILE   FILE's bytes at PREFIXdNNNN/pNNNNNNN.jpg
                                                           (folders of 1,000; bench/s3-noop.sh)
  s3_client.py ENDPOINT get BUCKET KEY FILE             writes the body, prints its headers
  s3_client.py ENDPOINT list BUCKET PREFIX              every key with size and ETag
  s3_client.py ENDPOINT uploads BUCKET                  keys of multipart uploads in progress
  s3_client.py ENDPOINT setup-auth BUCKET               IAM users and a role's session, then
                                                        moto checks signatures
"""
import concurrent.futures
import hashlib
import json
import random
import sys
import urllib.request

import boto3
from botocore.config import Config

endpoint, command, args = sys.argv[1], sys.argv[2], sys.argv[3:]


def client(service="s3", key=None):
    extra = {}
    if key:
        extra = {"aws_access_key_id": key[0], "aws_secret_access_key": key[1]}
    return boto3.client(
        service, endpoint_url=endpoint, region_name="us-east-1",
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}), **extra)


def body(seed, index):
    generator = random.Random(seed * 1_000_003 + index)
    return bytes(generator.getrandbits(8) for _ in range(generator.randint(1, 3000)))


if command == "make-bucket":
    client().create_bucket(Bucket=args[0])
    print("{}")
elif command == "seed":
    bucket, prefix, count, seed = args[0], args[1], int(args[2]), int(args[3])
    s3 = client()

    def put(index):
        data = body(seed, index)
        key = f"{prefix}{index:05d}.bin"
        s3.put_object(Bucket=bucket, Key=key, Body=data)
        return {"key": key, "size": len(data), "md5": hashlib.md5(data).hexdigest()}

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        print(json.dumps(list(pool.map(put, range(count)))))
elif command == "put":
    with open(args[2], "rb") as f:
        client().put_object(Bucket=args[0], Key=args[1], Body=f.read())
    print("{}")
elif command == "put-tree":
    import os
    bucket, prefix, folder = args
    s3 = client()
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                s3.put_object(Bucket=bucket, Key=prefix + os.path.relpath(path, folder), Body=f.read())
    print("{}")
elif command == "put-many":
    bucket, prefix, count, path = args[0], args[1], int(args[2]), args[3]
    with open(path, "rb") as f:
        data = f.read()
    s3 = client()

    def put_one(index):
        s3.put_object(Bucket=bucket, Key=f"{prefix}d{index // 1000:04d}/p{index:07d}.jpg", Body=data)

    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        list(pool.map(put_one, range(count)))
    print(json.dumps({"count": count}))
elif command == "delete":
    client().delete_object(Bucket=args[0], Key=args[1])
    print("{}")
elif command == "get":
    answer = client().get_object(Bucket=args[0], Key=args[1])
    with open(args[2], "wb") as f:
        f.write(answer["Body"].read())
    print(json.dumps({
        "content_type": answer.get("ContentType"), "cache_control": answer.get("CacheControl"),
        "etag": answer["ETag"].strip('"'), "size": answer["ContentLength"]}))
elif command == "list":
    paginator = client().get_paginator("list_objects_v2")
    keys = []
    for page in paginator.paginate(Bucket=args[0], Prefix=args[1]):
        keys += [{"key": o["Key"], "size": o["Size"], "etag": o["ETag"].strip('"')} for o in page.get("Contents", [])]
    print(json.dumps(keys))
elif command == "uploads":
    answer = client().list_multipart_uploads(Bucket=args[0])
    print(json.dumps([u["Key"] for u in answer.get("Uploads", [])]))
elif command == "setup-auth":
    bucket = args[0]
    client().create_bucket(Bucket=bucket)
    client().put_object(Bucket=bucket, Key="photos/a.jpg", Body=b"seed")
    iam = client("iam")
    users = {}
    for name, statement in [
        ("admin", {"Effect": "Allow", "Action": "s3:*", "Resource": "*"}),
        ("reader", {"Effect": "Allow", "Action": "s3:GetObject", "Resource": f"arn:aws:s3:::{bucket}/*"}),
        # May list and read the bucket, not write to it (an output prefix without s3:PutObject).
        ("lister", {"Effect": "Allow", "Action": ["s3:ListBucket", "s3:GetObject"],
                    "Resource": [f"arn:aws:s3:::{bucket}", f"arn:aws:s3:::{bucket}/*"]}),
    ]:
        iam.create_user(UserName=name)
        iam.put_user_policy(
            UserName=name, PolicyName=f"{name}-policy",
            PolicyDocument=json.dumps({"Version": "2012-10-17", "Statement": [statement]}))
        key = iam.create_access_key(UserName=name)["AccessKey"]
        users[name] = {"id": key["AccessKeyId"], "secret": key["SecretAccessKey"]}
    # Temporary credentials of a role allowed s3:* (access key, secret and session token).
    trust = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"AWS": "*"}, "Action": "sts:AssumeRole"}]}
    iam.create_role(RoleName="writer", AssumeRolePolicyDocument=json.dumps(trust))
    iam.put_role_policy(
        RoleName="writer", PolicyName="writer-policy",
        PolicyDocument=json.dumps({"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}))
    role = client("sts").assume_role(RoleArn="arn:aws:iam::123456789012:role/writer", RoleSessionName="test")
    credentials = role["Credentials"]
    users["session"] = {"id": credentials["AccessKeyId"], "secret": credentials["SecretAccessKey"], "token": credentials["SessionToken"]}
    # From now on moto checks every request's signature and permissions.
    request = urllib.request.Request(
        f"{endpoint}/moto-api/reset-auth", data=b"0", method="POST", headers={"Content-Type": "text/plain"})
    urllib.request.urlopen(request).read()
    # The independent client's signature is accepted: the server really checks.
    client(key=(users["admin"]["id"], users["admin"]["secret"])).head_object(Bucket=bucket, Key="photos/a.jpg")
    print(json.dumps(users))
else:
    sys.exit(f"unknown command {command}")
