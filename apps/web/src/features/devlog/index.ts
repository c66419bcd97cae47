// What other features may use of this one (they import nothing else from its folder).
export { GamePosts } from './game-posts';
export { PostArticle, PostBody } from './post-article';
