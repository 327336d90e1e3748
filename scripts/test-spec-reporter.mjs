// Node's `spec` reporter for compiled test files (scripts/compile-tests.mjs): each event names
// the source file and line, not the compiled one, so a failure reads as it does under tsx.
import { spec } from 'node:test/reporters';
import { eventOfSource } from './compile-tests.mjs';

const SpecReporter = Object.getPrototypeOf(new spec()).constructor;

export default class SourceSpecReporter extends SpecReporter {
  _transform(event, encoding, callback) {
    super._transform(eventOfSource(event), encoding, callback);
  }
}
