// Runs the Khronos glTF validator (the npm package gltf-validator) on each file given and
// prints its issues. Exits 1 when any file has an error or a warning (infos and hints are
// printed but allowed), 2 when the validator cannot be loaded or a file cannot be read.
// Usage: node gltf_validate.js [--modules DIR] FILE...   (DIR: a node_modules folder)
'use strict';
const fs = require('fs');
const path = require('path');

const args = process.argv.slice(2);
let modules = null;
if (args[0] === '--modules') {
    modules = args[1];
    args.splice(0, 2);
}
let validator;
try {
    validator = require(modules ? path.join(path.resolve(modules), 'gltf-validator') : 'gltf-validator');
} catch (e) {
    console.error(`gltf_validate: cannot load gltf-validator (${e.message}); run scripts/install-deps.sh`);
    process.exit(2);
}
const SEVERITY = ['error', 'warning', 'info', 'hint'];

async function validate(file) {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const report = await validator.validateBytes(bytes, {
        uri: path.basename(file),
        maxIssues: 0,
        writeTimestamp: false,
        externalResourceFunction: (uri) =>
            fs.promises.readFile(path.resolve(path.dirname(file), decodeURIComponent(uri))).then((d) => new Uint8Array(d)),
    });
    const issues = report.issues;
    const info = report.info || {};
    console.log(`${file}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ${issues.numInfos} infos, ` +
        `${issues.numHints} hints (validator ${report.validatorVersion}; ${info.animationCount || 0} animations, ` +
        `${info.drawCallCount || 0} draw calls, ${info.totalVertexCount || 0} vertices, max ${info.maxInfluences || 0} ` +
        `influences, generator ${info.generator || '?'})`);
    for (const m of issues.messages)
        console.log(`  ${SEVERITY[m.severity] || m.severity} ${m.code} at ${m.pointer || m.offset || ''}: ${m.message}`);
    return issues.numErrors + issues.numWarnings;
}

(async () => {
    if (args.length === 0) {
        console.error('usage: node gltf_validate.js [--modules DIR] FILE...');
        process.exit(2);
    }
    let bad = 0;
    for (const file of args) {
        try {
            bad += (await validate(file)) > 0 ? 1 : 0;
        } catch (e) {
            console.error(`${file}: ${e}`);
            process.exitCode = 2;
            return;
        }
    }
    console.log(`${args.length - bad} passed, ${bad} failed`);
    process.exitCode = bad ? 1 : 0; // not process.exit(): it would cut output still queued for a pipe
})();
