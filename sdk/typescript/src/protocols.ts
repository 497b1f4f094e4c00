/** The local protocol a spec names. Importing this module pulls in every protocol; import one factory for less. */
import { Spec } from './spec.js';
import { universeSize } from './universe.js';
import { grr, hadamardResponse, LocalProtocol, olh, oue, subsetSelection } from './fo.js';
import { tree } from './tree.js';
import { meanProtocol } from './mean.js';
import { fourier } from './fourier.js';
import { heavyDefaults, heavyHitters } from './heavy.js';
import { ballProtocol, boxProtocol } from './vector-params.js';
import { answerVectors, gaussianSignFor } from './gaussian-spec.js';
import { factorization } from './factorization.js';

export function protocolFor(spec: Spec): LocalProtocol {
  const k = universeSize(spec.domain);
  if (spec.mode !== 'local') throw new Error('spec ' + spec.id + ' is central mode: devices send raw values');
  const needK = (): number => {
    if (k === undefined) throw new Error('mechanism ' + spec.mechanism + ' needs a universe');
    return k;
  };
  switch (spec.mechanism) {
    case 'grr': return grr(needK(), spec.epsilon);
    case 'oue': return oue(needK(), spec.epsilon);
    case 'olh': return olh(needK(), spec.epsilon);
    case 'subset-selection': return subsetSelection(needK(), spec.epsilon);
    case 'hadamard-response': return hadamardResponse(needK(), spec.epsilon);
    case 'tree': {
      if (spec.protocolVersion !== 2) throw new Error('spec field protocolVersion: tree/' + spec.protocolVersion + ' is not derivable here (only 2)');
      return tree(needK(), spec.epsilon, spec.family);
    }
    case 'duchi': case 'piecewise': case 'hybrid': {
      if (spec.domain.kind === 'box') {
        const b = spec.domain;
        return boxProtocol(b.coordinates.length, b.lo, b.hi, b.levels, spec.mechanism, spec.epsilonText!);
      }
      if (spec.domain.kind !== 'range') throw new Error('spec field domain: ' + spec.mechanism + ' needs a range or a box');
      return meanProtocol(spec.mechanism, spec.domain.levels, spec.epsilon);
    }
    case 'fourier': {
      if (spec.domain.kind !== 'attributes') throw new Error('spec field domain: fourier needs attributes');
      if (spec.queries.way === undefined) throw new Error('spec field queries.way is required by fourier');
      return fourier(spec.domain.names.length, spec.queries.way, spec.epsilon);
    }
    case 'projection': case 'coarse-projection': case 'chaining': return gaussianSignFor(spec);
    case 'factorization': return factorization(answerVectors(spec), spec.epsilon, spec.protocolVersion);
    case 'privunit-g': {
      if (spec.domain.kind !== 'ball') throw new Error('spec field domain: privunit-g needs a ball');
      return ballProtocol(spec.domain.coordinates.length, spec.domain.radius, spec.epsilon);
    }
    case 'prefix-tree-sketch': {
      if (spec.domain.kind !== 'strings') throw new Error('spec field domain: prefix-tree-sketch needs strings');
      return heavyHitters(spec.contentHash, spec.epsilon, heavyDefaults(spec.domain.maxBytes, spec.epsilon));
    }
    default: throw new Error('spec field mechanism: ' + spec.mechanism + ' is not implemented by this SDK');
  }
}
