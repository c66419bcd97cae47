// What other features may use of this one (they import nothing else from its folder).
export { MediaUpload } from './media-upload';
